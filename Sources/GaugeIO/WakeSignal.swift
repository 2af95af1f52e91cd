/// A latched wake-up for a worker thread (the SQLite store's writer, the
/// NATS store's value puts), with timed waits on the monotonic clock. A
/// signal sent while nobody waits is kept for the next wait.
///
/// @unchecked Sendable: `signalled` is only touched inside the condition's
/// lock.
public final class WakeSignal: @unchecked Sendable {
  private let condition = MonotonicCondition()
  private var signalled = false

  public init() {}

  public func signal() {
    condition.withLock {
      signalled = true
      condition.signal()
    }
  }

  /// Until signalled, or until the monotonic clock reaches `deadline`
  /// (nanoseconds) when one is given. Consumes the signal.
  public func wait(untilNanoseconds deadline: UInt64? = nil) {
    condition.withLock {
      while !signalled {
        guard condition.wait(untilNanoseconds: deadline) else { return }
      }
      signalled = false
    }
  }

  /// The monotonic clock the deadlines are on.
  public static func nowNanoseconds() -> UInt64 { MonotonicCondition.nowNanoseconds() }
}
