import GaugeIO
import Glibc
import Testing

@Suite struct EventLoopGroupTests {
  @Test func nextHandsOutLoopsRoundRobin() throws {
    let group = try EventLoopGroup(threads: 3)
    let picks = (0..<6).map { _ in group.next() }
    let expected = group.loops + group.loops
    #expect(zip(picks, expected).allSatisfy { $0 === $1 })
  }

  @Test func eachLoopRunsOnItsOwnThread() async throws {
    let group = try EventLoopGroup(threads: 2)
    group.start()
    defer { group.stopAndJoin() }
    let threads = [
      try await onLoop(group.loops[0]) { pthread_self() },
      try await onLoop(group.loops[1]) { pthread_self() },
    ]
    #expect(pthread_equal(threads[0], threads[1]) == 0)
    #expect(pthread_equal(threads[0], pthread_self()) == 0)
  }

  /// The loops sit in epoll_wait with a timer an hour away, so returning at all shows stop()
  /// woke them; the slow task shows stopAndJoin waited for the threads to finish.
  @Test func stopAndJoinWakesIdleLoopsAndWaitsForThem() async throws {
    let group = try EventLoopGroup(threads: 2)
    group.start()
    let log = EventLog()
    for loop in group.loops {
      try await onLoop(loop) { loop.schedule(after: .seconds(3600)) {} }
    }
    group.loops[0].execute {
      usleep(20_000)
      log.record("slow task finished")
    }
    group.stopAndJoin()
    #expect(log.snapshot == ["slow task finished"])
  }
}

/// Holds its loop, as a connection holds the loop that runs its timers.
private final class LoopHolder: Sendable {
  let loop: EventLoop

  init(loop: EventLoop) {
    self.loop = loop
  }
}

/// Handles nothing; registered only to be held by the loop.
private final class IdleHandler: EventLoopHandler {
  let holder: LoopHolder

  init(holder: LoopHolder) {
    self.holder = holder
  }

  func readable() {}
  func writable() {}
  func hangup() {}
}

@Suite struct StoppedLoopTests {
  /// Work that holds the loop it waits on would otherwise keep both alive for good.
  @Test func aStoppedLoopReleasesWorkThatCannotRun() async throws {
    let pair = SocketPair()
    let fd = pair.local
    weak var weakLoop: EventLoop?
    weak var timerHolder: LoopHolder?
    weak var afterTurnHolder: LoopHolder?
    weak var handlerHolder: LoopHolder?
    do {
      let group = try EventLoopGroup(threads: 1)
      let loop = group.loops[0]
      weakLoop = loop
      group.start()
      let holders = try await onLoop(loop) {
        let holders = (0..<3).map { _ in LoopHolder(loop: loop) }
        loop.schedule(after: .seconds(3600)) { _ = holders[0] }
        try loop.register(fd: fd, interest: [], handler: IdleHandler(holder: holders[1]))
        // Queued by the task that stops the loop: the turn ends before it could run.
        loop.execute {
          loop.afterTurn { _ = holders[2] }
          loop.stop()
        }
        return holders
      }
      (timerHolder, handlerHolder, afterTurnHolder) = (holders[0], holders[1], holders[2])
      group.join()
    }
    #expect(timerHolder == nil)
    #expect(handlerHolder == nil)
    #expect(afterTurnHolder == nil)
    #expect(weakLoop == nil)
  }

  @Test func workHandedToAStoppedLoopIsReleasedUnrun() throws {
    let group = try EventLoopGroup(threads: 1)
    let loop = group.loops[0]
    group.start()
    group.stopAndJoin()
    let log = EventLog()
    weak var weakHolder: LoopHolder?
    do {
      let holder = LoopHolder(loop: loop)
      weakHolder = holder
      loop.execute {
        _ = holder
        log.record("ran")
      }
    }
    #expect(weakHolder == nil)
    #expect(log.snapshot.isEmpty)
  }
}
