import Testing

@testable import GRPCTransport

@Suite struct ReadBudgetTests {
  private let buffer = 64 << 10

  @Test func readsFullBuffersWhileNothingElseWaits() {
    var budget = ReadBudget(bufferBytes: buffer)
    budget.eventBegins()
    var reads = 0
    while true {
      #expect(budget.nextReadBytes == buffer)
      reads += 1
      guard budget.read(buffer, asked: buffer, othersWaiting: false) else { break }
    }
    #expect(reads == ReadBudget.fullReadsPerEvent)
  }

  @Test func aShortReadEndsTheEvent() {
    var budget = ReadBudget(bufferBytes: buffer)
    budget.eventBegins()
    let again = budget.read(100, asked: buffer, othersWaiting: false)
    #expect(!again)
    #expect(budget.nextReadBytes == buffer)
  }

  @Test func yieldsOnceItsInputQueuedWorkForOthers() {
    var budget = ReadBudget(bufferBytes: buffer)
    budget.eventBegins()
    let again = budget.read(buffer, asked: buffer, othersWaiting: true)
    #expect(!again)
    #expect(budget.yielding)
    // The next events read small chunks, one per event, while work waits.
    for _ in 0..<3 {
      budget.eventBegins()
      let asked = budget.nextReadBytes
      #expect(asked == ReadBudget.yieldingReadBytes)
      let again = budget.read(asked, asked: asked, othersWaiting: true)
      #expect(!again)
    }
  }

  @Test func goesBackToFullReadsWhenTheLoopIsClear() {
    var budget = ReadBudget(bufferBytes: buffer)
    budget.eventBegins()
    _ = budget.read(buffer, asked: buffer, othersWaiting: true)
    budget.eventBegins()
    let asked = budget.nextReadBytes
    let again = budget.read(asked, asked: asked, othersWaiting: false)
    #expect(again)
    #expect(!budget.yielding)
    #expect(budget.nextReadBytes == buffer)
  }

  @Test func neverAsksMoreThanTheBuffer() {
    var budget = ReadBudget(bufferBytes: 4 << 10)
    budget.eventBegins()
    _ = budget.read(4 << 10, asked: 4 << 10, othersWaiting: true)
    #expect(budget.nextReadBytes == 4 << 10)
  }
}
