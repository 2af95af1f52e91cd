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
