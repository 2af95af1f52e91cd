import GaugeIO

/// Lets calls on a connection use its event loop's clock, timers and queue.
final class LoopScheduler: CallScheduler {
  private let loop: EventLoop

  init(loop: EventLoop) {
    self.loop = loop
  }

  var now: ContinuousClock.Instant { loop.now }

  var inLoop: Bool { loop.inEventLoop }

  var loopExecutor: any LoopExecutor { loop }

  func execute(_ work: @escaping @Sendable () -> Void) {
    loop.execute(work)
  }

  func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
    let handle = loop.schedule(after: delay, work)
    let loop = self.loop
    return ScheduledWork { loop.cancel(handle) }
  }
}

extension EventLoop: LoopExecutor {}
