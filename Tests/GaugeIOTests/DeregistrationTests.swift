import GaugeIO
import Glibc
import Testing

/// Loop-thread state shared by the handlers of one test.
private final class Contestants {
  var pairs: [String: SocketPair] = [:]
  var replacement: SocketPair?
}

/// The first of these to run removes and closes its rival, which was ready in the same turn,
/// then registers a fresh idle socket; Linux hands out the lowest free descriptor, so that
/// socket usually takes over the rival's number while the rival's event is still queued.
private final class Evictor: EventLoopHandler {
  private unowned let loop: EventLoop
  private let name: String
  private let contestants: Contestants
  private let log: EventLog

  init(loop: EventLoop, name: String, contestants: Contestants, log: EventLog) {
    self.loop = loop
    self.name = name
    self.contestants = contestants
    self.log = log
  }

  func readable() {
    log.record("readable \(name)")
    contestants.pairs[name]?.drainLocal()
    guard contestants.replacement == nil else { return }
    for (rivalName, rival) in contestants.pairs where rivalName != name {
      loop.deregister(fd: rival.local)
      rival.close()
    }
    let replacement = SocketPair()
    contestants.replacement = replacement
    do {
      try loop.register(
        fd: replacement.local, interest: [.readable, .writable],
        handler: Recorder(name: "replacement", log: log, owning: replacement))
    } catch {
      Issue.record("registering the replacement failed: \(error)")
    }
  }

  func writable() {}

  func hangup() {
    log.record("hangup \(name)")
  }
}

/// Records every callback; registered for writability it hears `writable` every turn.
private final class Recorder: EventLoopHandler {
  private let name: String
  private let log: EventLog
  private let pair: SocketPair?
  private var reportedWritable = false

  init(name: String, log: EventLog, owning pair: SocketPair? = nil) {
    self.name = name
    self.log = log
    self.pair = pair
  }

  func readable() { log.record("readable \(name)") }

  func writable() {
    guard !reportedWritable else { return }
    reportedWritable = true
    log.record("writable \(name)")
  }

  func hangup() { log.record("hangup \(name)") }
}

/// Deregisters itself from inside its own callback.
private final class OneShot: EventLoopHandler {
  private unowned let loop: EventLoop
  private let pair: SocketPair
  private let log: EventLog

  init(loop: EventLoop, pair: SocketPair, log: EventLog) {
    self.loop = loop
    self.pair = pair
    self.log = log
  }

  deinit {
    log.record("released")
  }

  func readable() {
    log.record("readable")
    // Left undrained: were the registration still live, level triggering would repeat this.
    loop.deregister(fd: pair.local)
  }

  func writable() {}
  func hangup() {}
}

@Suite struct DeregistrationTests {
  @Test func deregisteringAnotherReadyDescriptorDropsItsPendingEvent() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        let contestants = Contestants()
        for name in ["a", "b"] {
          let pair = SocketPair()
          pair.sendToLocal()
          contestants.pairs[name] = pair
          try loop.register(
            fd: pair.local, interest: .readable,
            handler: Evictor(loop: loop, name: name, contestants: contestants, log: log))
        }
      }
      await log.wait(for: "writable replacement")
      // Two more turns for any stray callback to show up.
      try await onLoop(loop) {}
      try await onLoop(loop) {}
      let lines = log.snapshot
      #expect(lines.count == 2)
      #expect(lines.first == "readable a" || lines.first == "readable b")
      #expect(lines.last == "writable replacement")
    }
  }

  @Test func aHandlerCanDeregisterItselfInItsCallback() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      try await onLoop(loop) {
        let pair = SocketPair()
        pair.sendToLocal()
        try loop.register(
          fd: pair.local, interest: .readable, handler: OneShot(loop: loop, pair: pair, log: log))
      }
      await log.wait(for: "released")
      try await onLoop(loop) {}
      try await onLoop(loop) {}
      #expect(log.snapshot == ["readable", "released"])
    }
  }

  @Test func setInterestControlsWhichCallbacksRun() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      let fd = try await onLoop(loop) {
        let pair = SocketPair()
        pair.sendToLocal()
        // Readable and writable, but watched for neither yet.
        let recorder = Recorder(name: "pair", log: log, owning: pair)
        try loop.register(fd: pair.local, interest: [], handler: recorder)
        return pair.local
      }
      try await onLoop(loop) {}
      #expect(log.snapshot.isEmpty)
      try await onLoop(loop) { try loop.setInterest(fd: fd, .writable) }
      await log.wait(for: "writable pair")
      #expect(log.snapshot == ["writable pair"])
    }
  }

  @Test func setInterestOnAnUnregisteredDescriptorThrows() async throws {
    try await withRunningLoop { loop in
      let thrown = try await onLoop(loop) { () -> IOError? in
        do throws(IOError) {
          try loop.setInterest(fd: 12345, .readable)
          return nil
        } catch {
          return error
        }
      }
      #expect(thrown == IOError(call: "epoll_ctl", errno: ENOENT))
    }
  }
}
