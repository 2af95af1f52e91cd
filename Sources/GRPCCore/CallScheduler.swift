/// The clock and executor a connection's calls run on: an event loop in the
/// server, a manual one in tests.
public protocol CallScheduler: AnyObject {
  var now: ContinuousClock.Instant { get }
  /// True on the scheduler's own thread.
  var inLoop: Bool { get }
  /// The thread's own executor, the same object for every connection it
  /// serves: per-thread state (a fan-out inbox) can be keyed by it, and it
  /// outlives any one connection.
  var loopExecutor: any LoopExecutor { get }
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

/// Runs work on one thread's loop, from any thread.
public protocol LoopExecutor: AnyObject, Sendable {
  func execute(_ work: @escaping @Sendable () -> Void)
  /// True on the loop's own thread.
  var inLoop: Bool { get }
  /// On the loop, from a task: writes what the connections queued so far
  /// now, if more than `limit` of them wait to write at the end of the turn.
  func writeQueuedOutput(ifMoreThan limit: Int)
}

extension LoopExecutor {
  /// Executors without sockets have nothing to write early.
  public func writeQueuedOutput(ifMoreThan limit: Int) {}
}
