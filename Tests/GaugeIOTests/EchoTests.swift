import GaugeIO
import Testing

/// Writes back whatever arrives, closing when the peer does.
private final class Echo: EventLoopHandler {
  private unowned let loop: EventLoop
  private let socket: ConnectedSocket

  init(loop: EventLoop, socket: ConnectedSocket) {
    self.loop = loop
    self.socket = socket
  }

  func readable() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    do {
      while case .processed(let count) = try buffer.withUnsafeMutableBytes({
        try socket.read(into: $0)
      }) {
        guard count > 0 else { return hangup() }
        // Test payloads are tiny, so the send buffer always takes them whole.
        let written = try buffer[..<count].withUnsafeBytes { try socket.write($0) }
        #expect(written == .processed(count))
      }
    } catch {
      Issue.record("echo failed: \(error)")
      hangup()
    }
  }

  func writable() {}

  func hangup() {
    loop.deregister(fd: socket.fd)
    socket.close()
  }
}

@Suite struct EchoTests {
  @Test func echoesThroughTheLoop() async throws {
    try await withRunningLoop { loop in
      let port = try await onLoop(loop) {
        try Acceptor.listen(on: loop) { Echo(loop: loop, socket: $0) }
      }
      let client = try ConnectedSocket.connect(to: SocketAddress(parsing: "127.0.0.1:\(port)"))
      try client.writeAll("ping")
      #expect(try client.read(count: 4) == "ping")
      try client.writeAll("second message")
      #expect(try client.read(count: 14) == "second message")
    }
  }

  @Test func servesSeveralClientsAtOnce() async throws {
    try await withRunningLoop { loop in
      let port = try await onLoop(loop) {
        try Acceptor.listen(on: loop) { Echo(loop: loop, socket: $0) }
      }
      let address = try SocketAddress(parsing: "127.0.0.1:\(port)")
      let clients = try (0..<4).map { _ in try ConnectedSocket.connect(to: address) }
      for (index, client) in clients.enumerated() {
        try client.writeAll("client \(index)")
      }
      for (index, client) in clients.enumerated() {
        #expect(try client.read(count: 8) == "client \(index)")
      }
    }
  }
}
