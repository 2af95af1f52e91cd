/// A callback waiting for a loop's delivery count to reach a target: what
/// the main thread waits on between rounds.
struct DeliveryWaiter {
  private var waiting: (target: UInt64, callback: () -> Void)?

  /// Runs `callback` once the count reaches `target`: at once when
  /// `delivered` already has.
  mutating func wait(
    until target: UInt64, delivered: UInt64, _ callback: @escaping () -> Void
  ) {
    if delivered >= target {
      callback()
    } else {
      waiting = (target, callback)
    }
  }

  /// The count is now `delivered`.
  mutating func delivered(_ delivered: UInt64) {
    guard let waiting, delivered >= waiting.target else { return }
    self.waiting = nil
    waiting.callback()
  }
}
