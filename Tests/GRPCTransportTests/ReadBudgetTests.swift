import Testing

@testable import GRPCTransport

@Suite struct ReadBudgetTests {
  private let buffer = 64 << 10

  /// One read of a full event: reads what is asked, then reports.
  private func read(
    _ budget: inout ReadBudget, othersWaiting: Bool, short: Bool = false
  ) -> (asked: Int, again: Bool) {
    let asked = budget.nextReadBytes(bufferBytes: buffer)
    let again = budget.read(short ? asked / 2 : asked, asked: asked, othersWaiting: othersWaiting)
    return (asked, again)
  }

  @Test func readsFullBuffersWhileNothingElseWaits() {
    var budget = ReadBudget()
    budget.eventBegins()
    var reads = 0
    while true {
      reads += 1
      let (asked, again) = read(&budget, othersWaiting: false)
      #expect(asked == buffer)
      if !again { break }
    }
    #expect(reads == ReadBudget.fullReadsPerEvent)
    #expect(!budget.limitsBacklog)
  }

  @Test func aShortReadEndsTheEvent() {
    var budget = ReadBudget()
    budget.eventBegins()
    let (_, again) = read(&budget, othersWaiting: false, short: true)
    #expect(!again)
    #expect(budget.nextReadBytes(bufferBytes: buffer) == buffer)
  }

  @Test func yieldsOnceItsInputQueuedWorkForOthers() {
    var budget = ReadBudget()
    budget.eventBegins()
    let (_, again) = read(&budget, othersWaiting: true)
    #expect(!again)
    #expect(budget.yielding)
    #expect(budget.limitsBacklog)
    // The next events read small chunks, one per event, while work waits.
    for _ in 0..<3 {
      budget.eventBegins()
      let (asked, again) = read(&budget, othersWaiting: true)
      #expect(asked == ReadBudget.yieldingReadBytes)
      #expect(!again)
    }
  }

  @Test func goesBackToFullReadsWhenTheLoopIsClear() {
    var budget = ReadBudget()
    budget.eventBegins()
    _ = read(&budget, othersWaiting: true)
    budget.eventBegins()
    let (asked, again) = read(&budget, othersWaiting: false)
    #expect(asked == ReadBudget.yieldingReadBytes)
    #expect(again)
    #expect(!budget.yielding)
    #expect(budget.nextReadBytes(bufferBytes: buffer) == buffer)
  }

  @Test func windowsStayLimitedUntilEnoughCalmReadsInARow() {
    var budget = ReadBudget()
    budget.eventBegins()
    _ = read(&budget, othersWaiting: true)
    for _ in 1..<ReadBudget.calmReadsBeforeFullWindows {
      budget.eventBegins()
      _ = read(&budget, othersWaiting: false)
    }
    #expect(budget.limitsBacklog)
    // A busy read starts the count again.
    budget.eventBegins()
    _ = read(&budget, othersWaiting: true)
    for _ in 0..<ReadBudget.calmReadsBeforeFullWindows {
      #expect(budget.limitsBacklog)
      budget.eventBegins()
      _ = read(&budget, othersWaiting: false)
    }
    #expect(!budget.limitsBacklog)
  }

  @Test func aReadThatEmptiedTheSocketLimitsNoWindow() {
    var budget = ReadBudget()
    budget.eventBegins()
    let (_, again) = read(&budget, othersWaiting: true, short: true)
    #expect(!again)
    #expect(budget.yielding)
    #expect(!budget.limitsBacklog)
  }

  @Test func neverAsksMoreThanTheBuffer() {
    var budget = ReadBudget()
    budget.eventBegins()
    _ = budget.read(4 << 10, asked: 4 << 10, othersWaiting: true)
    #expect(budget.nextReadBytes(bufferBytes: 2 << 10) == 2 << 10)
  }
}
