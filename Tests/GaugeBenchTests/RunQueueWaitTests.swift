import GaugeIO
import Glibc
import Testing

@testable import gauge_bench

@Suite struct RunQueueWaitTests {
  @Test func schedstatIsThreeNumbers() {
    #expect(
      RunQueueWait.parse(schedstat: "235191248 33873004 1355\n")
        == RunQueueWait.Thread(
          runningNanos: 235_191_248, waitingNanos: 33_873_004, timeslices: 1355))
    #expect(RunQueueWait.parse(schedstat: "12 34\n") == nil)
    #expect(RunQueueWait.parse(schedstat: "a b c") == nil)
  }

  @Test func waitingIsSummedOverThreadsPresentAtBothEnds() throws {
    let before = RunQueueWait(threads: [
      1: .init(runningNanos: 0, waitingNanos: 1_000_000, timeslices: 10),
      2: .init(runningNanos: 0, waitingNanos: 5_000_000, timeslices: 20),
      3: .init(runningNanos: 0, waitingNanos: 7_000_000, timeslices: 5),
    ])
    let after = RunQueueWait(threads: [
      1: .init(runningNanos: 0, waitingNanos: 3_000_000, timeslices: 30),
      2: .init(runningNanos: 0, waitingNanos: 7_000_000, timeslices: 40),
      // Thread 3 ended; thread 4 started inside the window.
      4: .init(runningNanos: 0, waitingNanos: 90_000_000, timeslices: 1),
    ])
    let wait = try #require(after.since(before, wallNanos: 10_000_000))
    // 4 ms waited over a 10 ms window, in 40 timeslices.
    #expect(wait.percent == 40)
    #expect(wait.meanMicros == 100)
  }

  @Test(
    "time this process spends on a core shows in its threads' counters",
    .enabled(if: RunQueueWait.sample(process: "self") != nil, "the kernel keeps no schedstat"))
  func busyThreadIsCounted() throws {
    // This thread's counter only: summed over the process, threads that
    // other tests end between the two samples take their time with them.
    let thread = Syscall.currentThreadID
    let before = try #require(RunQueueWait.sample(process: "self")?.threads[thread])
    // 20 ms of this thread's own CPU time, however long that takes on a
    // busy machine.
    let start = threadCPUNanos()
    var spins: UInt64 = 0
    while threadCPUNanos() - start < 20_000_000 { spins &+= 1 }
    let after = try #require(RunQueueWait.sample(process: "self")?.threads[thread])
    #expect(spins > 0)
    #expect(after.runningNanos >= before.runningNanos + 15_000_000)
  }

  private func threadCPUNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
