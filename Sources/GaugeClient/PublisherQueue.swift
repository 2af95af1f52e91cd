import Synchronization

/// The producers' side of a `ValuePublisher`: credits for the stream's
/// window, the values not yet handed to the loop, and the tasks waiting
/// for credits. Any thread.
final class PublisherQueue: Sendable {
  private let state: Mutex<State>

  private struct State {
    var credits: Int
    /// Encoded values not yet handed to the loop.
    var outbox: [[UInt8]] = []
    var drainQueued = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    /// Set when the call ended (or failed to start).
    var failure: GaugeError?
    var finishing = false
  }

  /// What `offer` did.
  enum Offer {
    /// Queued; a drain is already on its way to the loop.
    case queued
    /// Queued; the caller must schedule the drain.
    case queuedNeedsDrain
    /// No credit: wait, then offer again.
    case full
    /// The stream cannot take values any more.
    case failed(GaugeError)
  }

  init(window: Int) {
    state = Mutex(State(credits: window))
  }

  func offer(_ message: [UInt8]) -> Offer {
    state.withLock { state in
      if let failure = state.failure { return .failed(failure) }
      if state.finishing {
        return .failed(
          GaugeError(code: .failedPrecondition, message: "send after finish() on a publisher"))
      }
      guard state.credits > 0 else { return .full }
      state.credits -= 1
      state.outbox.append(message)
      if state.drainQueued { return .queued }
      state.drainQueued = true
      return .queuedNeedsDrain
    }
  }

  /// Suspends until a credit may be free, the stream ends, or the task is
  /// cancelled (then throws `cancelled`).
  func waitForCredit() async throws(GaugeError) {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state in
          if state.credits > 0 || state.failure != nil || Task.isCancelled { return true }
          state.waiters.append(continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      // Every waiter wakes and looks again; only the cancelled one leaves.
      wakeAll { _ in }
    }
    if Task.isCancelled { throw .cancelled }
  }

  /// The values queued since the last drain.
  func takeOutbox() -> [[UInt8]] {
    state.withLock { state in
      state.drainQueued = false
      defer { state.outbox = [] }
      return state.outbox
    }
  }

  /// HTTP/2 took `count` values: their credits come back.
  func returnCredits(_ count: Int) {
    wakeAll { $0.credits += count }
  }

  /// The stream ended: producers stop with `error`.
  func fail(_ error: GaugeError) {
    wakeAll { state in
      if state.failure == nil { state.failure = error }
    }
  }

  /// `finish()` began: no more values.
  func beginFinishing() {
    state.withLock { $0.finishing = true }
  }

  private func wakeAll(after change: (inout State) -> Void) {
    let waiters = state.withLock { state in
      change(&state)
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
