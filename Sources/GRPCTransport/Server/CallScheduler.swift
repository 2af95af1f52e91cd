/// The clock and executor a connection's calls run on: an event loop in the
/// server, a manual one in tests.
public protocol CallScheduler: AnyObject {
  var now: ContinuousClock.Instant { get }
  /// True on the scheduler's own thread.
  var inLoop: Bool { get }
  /// Runs `work` on the scheduler's thread, from any thread.
  func execute(_ work: @escaping @Sendable () -> Void)
  /// Runs `work` on the scheduler's thread after `delay`; the returned value
  /// cancels it.
  func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork
}

public struct ScheduledWork {
  private let cancelAction: () -> Void

  public init(cancel: @escaping () -> Void) {
    self.cancelAction = cancel
  }

  public func cancel() {
    cancelAction()
  }
}
