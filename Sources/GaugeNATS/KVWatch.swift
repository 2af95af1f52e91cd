import CNATS
import Synchronization

/// A running watch of every key of a bucket: a JetStream ordered consumer
/// (no acks, in stream order, recreated by libnats from the last delivered
/// revision after a reconnection) whose messages become `KVWatchEvent`s.
/// `stop()` (or the last reference going) ends it; the handler may still run
/// once while `stop` returns, never after `finished` was called.
public final class KVWatch: Sendable {
  private let subscription: Mutex<OpaqueSubscription?>

  init(subscription: OpaquePointer) {
    self.subscription = Mutex(OpaqueSubscription(pointer: subscription))
  }

  deinit {
    stop()
  }

  /// Unsubscribes; the watch's `finished` runs once libnats has delivered
  /// its last message. Idempotent.
  public func stop() {
    guard let taken = subscription.withLock({ $0.take() }) else { return }
    natsSubscription_Unsubscribe(taken.pointer)
    natsSubscription_Destroy(taken.pointer)
  }
}

/// The subscription handle, moved between threads only under the watch's
/// lock. `@unchecked Sendable`: libnats's subscriptions may be used and
/// closed from any thread.
struct OpaqueSubscription: @unchecked Sendable {
  let pointer: OpaquePointer
}

/// What a watch's callbacks reach: the handler, the key prefix to strip and
/// whether the watch has caught up yet. Retained by the subscription from
/// its start until libnats says it is complete.
final class WatchReceiver: Sendable {
  enum Phase {
    case catchingUp
    case live
  }

  let keyPrefix: String
  let handler: @Sendable (KVWatchEvent) -> Void
  let finished: @Sendable () -> Void
  private let phase: Mutex<Phase>

  init(
    keyPrefix: String, caughtUp: Bool, handler: @escaping @Sendable (KVWatchEvent) -> Void,
    finished: @escaping @Sendable () -> Void
  ) {
    self.keyPrefix = keyPrefix
    self.handler = handler
    self.finished = finished
    self.phase = Mutex(caughtUp ? .live : .catchingUp)
  }

  /// One message of the consumer, on its delivery thread.
  func receive(_ message: OpaquePointer) {
    var metadata: UnsafeMutablePointer<jsMsgMetaData>?
    guard natsMsg_GetMetaData(&metadata, message) == NATS_OK, let metadata else {
      // Not a JetStream delivery (libnats handles its flow-control and
      // heartbeat messages itself); nothing to report.
      return
    }
    let revision = metadata.pointee.Sequence.Stream
    let pending = metadata.pointee.NumPending
    jsMsgMetaData_Destroy(metadata)
    if let change = KVMessage.change(of: message, keyPrefix: keyPrefix, revision: revision) {
      handler(.change(change))
    }
    guard pending == 0 else { return }
    let reachedLive = phase.withLock { phase -> Bool in
      guard case .catchingUp = phase else { return false }
      phase = .live
      return true
    }
    if reachedLive { handler(.caughtUp) }
  }
}

/// libnats's message handler for watches. `closure` is the
/// `WatchReceiver`, retained until `watchCompleted`; the message is ours to
/// destroy.
func watchMessageArrived(
  _ connection: OpaquePointer?, _ subscription: OpaquePointer?, _ message: OpaquePointer?,
  _ closure: UnsafeMutableRawPointer?
) {
  guard let message else { return }
  defer { natsMsg_Destroy(message) }
  guard let closure else { return }
  Unmanaged<WatchReceiver>.fromOpaque(closure).takeUnretainedValue().receive(message)
}

/// Called by libnats once the subscription is closed and its handler has
/// returned for the last time: gives back the receiver's retain.
func watchCompleted(_ closure: UnsafeMutableRawPointer?) {
  guard let closure else { return }
  let receiver = Unmanaged<WatchReceiver>.fromOpaque(closure).takeRetainedValue()
  receiver.finished()
}
