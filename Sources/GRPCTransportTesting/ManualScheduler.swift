import GRPCCore
import GRPCTransport

/// A `CallScheduler` whose clock moves only when told to, for driving
/// connections in memory (tests, simulations): timers fire from `advance`,
/// work runs at once on the calling thread.
public final class ManualScheduler: CallScheduler {
  public private(set) var now = ContinuousClock.now
  public let inLoop = true
  public var loopExecutor: any LoopExecutor { ImmediateExecutor.shared }
  private var timers: [(id: Int, at: ContinuousClock.Instant, work: () -> Void)] = []
  private var nextID = 0

  public init() {}

  public func execute(_ work: @escaping @Sendable () -> Void) {
    work()
  }

  public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
    nextID += 1
    let id = nextID
    timers.append((id, now + delay, work))
    return ScheduledWork { [weak self] in self?.timers.removeAll { $0.id == id } }
  }

  /// Moves the clock and fires every timer now due, in deadline order.
  public func advance(by delay: Duration) {
    now = now + delay
    let due = timers.filter { $0.at <= now }.sorted { $0.at < $1.at }
    timers.removeAll { $0.at <= now }
    for timer in due { timer.work() }
  }

  public var pendingTimers: Int { timers.count }
}

/// Runs work at once on the calling thread: the single "loop" of an
/// in-memory connection.
public final class ImmediateExecutor: LoopExecutor {
  public let inLoop = true

  public static let shared = ImmediateExecutor()

  public func execute(_ work: @escaping @Sendable () -> Void) {
    work()
  }
}
