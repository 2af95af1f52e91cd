import GRPCTransport

/// The timer that sends events a minimum interval held back: one per
/// subscription that asked for an interval, re-armed only for an earlier
/// due time.
final class IntervalWake {
  private var timer: ScheduledWork?
  private var atMs: Int64?

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
