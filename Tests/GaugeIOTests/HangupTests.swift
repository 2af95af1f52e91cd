import GaugeIO
import Glibc
import Testing

/// Reads until the socket is drained, logging data, end of file and errors; on hangup it
/// deregisters and closes, as a connection handler should.
private final class HangupWatcher: EventLoopHandler {
  private unowned let loop: EventLoop
  private let socket: ConnectedSocket
  private let log: EventLog

  init(loop: EventLoop, socket: ConnectedSocket, log: EventLog) {
    self.loop = loop
    self.socket = socket
    self.log = log
    log.record("accepted")
  }

  func readable() {
    var buffer = [UInt8](repeating: 0, count: 64)
    do {
      while case .processed(let count) = try buffer.withUnsafeMutableBytes({
        try socket.read(into: $0)
      }) {
        if count == 0 {
          log.record("end of file")
          return
        }
        log.record("data")
      }
    } catch let error as IOError {
      log.record("\(error.call) error \(error.errno)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  func writable() {}

  func hangup() {
    log.record("hangup")
    loop.deregister(fd: socket.fd)
    socket.close()
  }
}

@Suite struct HangupTests {
  @Test func hangupFollowsTheLastReadWhenThePeerCloses() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      let port = try await onLoop(loop) {
        try Acceptor.listen(on: loop) { HangupWatcher(loop: loop, socket: $0, log: log) }
      }
      let client = try ConnectedSocket.connect(to: SocketAddress(parsing: "127.0.0.1:\(port)"))
      try client.writeAll("bye")
      client.close()
      await log.wait(for: "hangup")
      try await onLoop(loop) {}
      let lines = log.snapshot
      #expect(lines.first == "accepted")
      #expect(lines.contains("data"))
      #expect(lines.suffix(2) == ["end of file", "hangup"])
      #expect(lines.filter { $0 == "hangup" }.count == 1)
    }
  }

  @Test func hangupIsReportedWhenThePeerResets() async throws {
    try await withRunningLoop { loop in
      let log = EventLog()
      let port = try await onLoop(loop) {
        try Acceptor.listen(on: loop) { HangupWatcher(loop: loop, socket: $0, log: log) }
      }
      let client = try ConnectedSocket.connect(to: SocketAddress(parsing: "127.0.0.1:\(port)"))
      await log.wait(for: "accepted")
      // A zero linger time makes close send RST instead of FIN.
      var abort = linger(l_onoff: 1, l_linger: 0)
      let set = setsockopt(
        client.fd, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
      try #require(set == 0)
      client.close()
      let lines = await log.wait(for: "hangup")
      #expect(lines.contains("read error \(ECONNRESET)"))
      #expect(lines.last == "hangup")
    }
  }
}
