import Synchronization

/// Subscribers attached on any loop, kept beside each inbox's own count so
/// that `ChangeHub.publish` can skip the inboxes' lock when there are none:
/// every write on every loop would otherwise take that lock, and pass its
/// cache line between cores, for nothing.
final class SubscriberTally: Sendable {
  let count = Atomic<Int>(0)
}
