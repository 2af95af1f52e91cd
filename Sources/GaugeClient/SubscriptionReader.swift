import Synchronization

/// The reading side's hold on a subscription, shared by the sequence and
/// its iterator: once the reader stops (its task was cancelled, it left
/// the loop, or it dropped both), the buffer closes and the stream on the
/// server is cancelled, once.
final class SubscriptionReader: Sendable {
  let buffer: SubscriptionBuffer
  private let stopped = Atomic<Bool>(false)
  /// Cancels the subscription on its loop.
  private let onStop: @Sendable () -> Void

  init(buffer: SubscriptionBuffer, onStop: @escaping @Sendable () -> Void) {
    self.buffer = buffer
    self.onStop = onStop
  }

  deinit { stop() }

  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    buffer.close()
    onStop()
  }
}
