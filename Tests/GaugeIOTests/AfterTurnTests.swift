import GaugeIO
import Testing

/// On readable, drains its socket and asks for an end-of-turn flush, as a connection would.
private final class FlushingReader: EventLoopHandler {
  private unowned let loop: EventLoop
  private let name: String
  private let pair: SocketPair
  private let log: EventLog

  init(loop: EventLoop, name: String, pair: SocketPair, log: EventLog) {
    self.loop = loop
    self.name = name
    self.pair = pair
    self.log = log
  }

  func readable() {
    pair.drainLocal()
    log.record("read \(name)")
    loop.afterTurn { [log, name] in log.record("flush \(name)") }
  }

  func writable() {}
  func hangup() {}
}

@Suite struct AfterTurnTests {
  @Test func afterTurnRunsOnceAllEventsOfTheTurnWereHandled() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        // Both become readable before the loop next waits, so a single turn reports both.
        for name in ["a", "b"] {
          let pair = SocketPair()
          pair.sendToLocal()
          let reader = FlushingReader(loop: loop, name: name, pair: pair, log: log)
          try loop.register(fd: pair.local, interest: .readable, handler: reader)
        }
        loop.afterTurn { log.record("end of the registering turn") }
      }
      let lines = await log.wait(forCount: 5)
      try #require(lines.count == 5)
      #expect(lines[0] == "end of the registering turn")
      #expect(Set(lines[1...2]) == ["read a", "read b"])
      #expect(Set(lines[3...4]) == ["flush a", "flush b"])
    }
  }

  /// A task in the middle of a long batch may run the end-of-turn work
  /// queued so far, once more than a limit of it waits; later work still
  /// waits for the end of the turn, and the work itself cannot start it.
  @Test func endOfTurnWorkRunsEarlyOnlyBeyondItsLimit() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        for name in ["a", "b", "c"] {
          loop.afterTurn {
            log.record("flush \(name)")
            loop.runAfterTurnWork(ifMoreThan: 0)
          }
        }
        loop.runAfterTurnWork(ifMoreThan: 3)
        log.record("three waiting: not beyond a limit of 3")
        loop.runAfterTurnWork(ifMoreThan: 2)
        log.record("ran early")
        loop.afterTurn { log.record("flush d") }
        loop.runAfterTurnWork(ifMoreThan: 1)
      }
      let lines = await log.wait(forCount: 6)
      #expect(
        lines == [
          "three waiting: not beyond a limit of 3", "flush a", "flush b", "flush c", "ran early",
          "flush d",
        ])
    }
  }
}
