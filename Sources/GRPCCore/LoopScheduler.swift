import GaugeIO

/// Lets calls on a connection use its event loop's clock, timers and queue.
package final class LoopScheduler: CallScheduler {
  private let loop: EventLoop

  package init(loop: EventLoop) {
    self.loop = loop
  }

  package var now: ContinuousClock.Instant { loop.now }

  package var inLoop: Bool { loop.inEventLoop }

  package var loopExecutor: any LoopExecutor { loop }

  package func execute(_ work: @escaping @Sendable () -> Void) {
    loop.execute(work)
  }

  package func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
    let handle = loop.schedule(after: delay, work)
    let loop = self.loop
    return ScheduledWork { loop.cancel(handle) }
  }
}

extension EventLoop: LoopExecutor {
  public var inLoop: Bool { inEventLoop }

  // Connections queue their one write per turn as end-of-turn work.
  public func writeQueuedOutput(ifMoreThan limit: Int) {
    runAfterTurnWork(ifMoreThan: limit)
  }
}
