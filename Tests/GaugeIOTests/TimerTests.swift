import GaugeIO
import Testing

@Suite struct TimerTests {
  @Test func timersFireInDeadlineOrderAndCancelledOnesDoNot() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        let start = loop.now
        func record(_ name: String, after delay: Duration) -> () -> Void {
          { log.record(loop.now - start >= delay ? name : "\(name) fired early") }
        }
        loop.schedule(after: .milliseconds(30), record("30", after: .milliseconds(30)))
        loop.schedule(after: .milliseconds(10), record("10", after: .milliseconds(10)))
        let cancelled = loop.schedule(after: .milliseconds(20)) { log.record("cancelled") }
        loop.schedule(after: .milliseconds(20), record("20", after: .milliseconds(20)))
        loop.cancel(cancelled)
        loop.schedule(after: .milliseconds(40), record("40 first", after: .milliseconds(40)))
        loop.schedule(after: .milliseconds(40), record("40 second", after: .milliseconds(40)))
        // Both due in the same turn: the first must still be able to cancel the second.
        var victim: TimerHandle?
        loop.schedule(after: .milliseconds(50)) {
          loop.cancel(victim!)
          log.record("50")
        }
        victim = loop.schedule(after: .milliseconds(50)) { log.record("cancelled while due") }
        loop.schedule(after: .milliseconds(60), record("60", after: .milliseconds(60)))
      }
      let lines = await log.wait(for: "60")
      #expect(lines == ["10", "20", "30", "40 first", "40 second", "50", "60"])
    }
  }

  @Test func aTimerScheduledByATimerFiresLater() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        loop.schedule(after: .zero) {
          log.record("outer")
          loop.schedule(after: .zero) { log.record("inner") }
        }
      }
      #expect(await log.wait(forCount: 2) == ["outer", "inner"])
    }
  }
}
