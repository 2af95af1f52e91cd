import Synchronization

/// A connection's calls whose handlers may still be working: each counts
/// from dispatch until the last reference to its `ServerCall` goes away,
/// which for a call the peer reset is when the handler's pending work
/// (a store write, a timer) lets go of it. Work ends on any thread, hence
/// the atomic.
final class CallsInFlight: Sendable {
  private let count = Atomic<Int>(0)

  var current: Int { count.load(ordering: .relaxed) }

  func enter() {
    count.add(1, ordering: .relaxed)
  }

  func leave() {
    count.subtract(1, ordering: .relaxed)
  }
}
