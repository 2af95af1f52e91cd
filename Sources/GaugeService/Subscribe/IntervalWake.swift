import GRPCCore
import GRPCTransport
import GaugeDomain

/// The timer that sends events a minimum interval held back: one per
/// subscription that asked for an interval, re-armed only for an earlier
/// due time.
final class IntervalWake {
  private var timer: ScheduledWork?
  private var atMs: Int64?

  /// Arms `wake` (made on first use) for the next event `queue` holds back
  /// past `nowMs`, if any.
  static func schedule(
    _ wake: inout IntervalWake?, for queue: borrowing SubscriberQueue<SharedEvent>, nowMs: Int64,
    using schedule: (Duration, @escaping () -> Void) -> ScheduledWork?,
    fire: @escaping () -> Void
  ) {
    // Checked first: calling a method on the queue copies it (a retain and
    // release of each of its buffers), on every pump of every subscriber.
    guard queue.minIntervalMs > 0,
      let dueMs = queue.nextDueMs(nowMs: nowMs), dueMs > nowMs
    else { return }
    let armed = wake ?? IntervalWake()
    wake = armed
    armed.schedule(atMs: dueMs, nowMs: nowMs, using: schedule, fire: fire)
  }

  func schedule(
    atMs dueMs: Int64, nowMs: Int64,
    using schedule: (Duration, @escaping () -> Void) -> ScheduledWork?,
    fire: @escaping () -> Void
  ) {
    if let atMs, atMs <= dueMs { return }
    timer?.cancel()
    atMs = dueMs
    timer = schedule(.milliseconds(dueMs - nowMs)) { [weak self] in
      self?.atMs = nil
      self?.timer = nil
      fire()
    }
  }

  func cancel() {
    timer?.cancel()
    timer = nil
    atMs = nil
  }
}
