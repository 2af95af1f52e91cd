import GRPCClient
import GRPCCore
import GRPCTransport
import GaugeIO
import Glibc
import Testing

/// A server on loopback that answers the first request it reads with fixed
/// bytes, whatever they are.
private final class ScriptedServer: EventLoopHandler {
  let socket: ConnectedSocket
  private let answer: [UInt8]
  private var answered = false

  init(socket: ConnectedSocket, answer: [UInt8]) {
    self.socket = socket
    self.answer = answer
  }

  func readable() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    _ = buffer.withUnsafeMutableBytes { try? socket.read(into: $0) }
    guard !answered else { return }
    answered = true
    _ = answer.withUnsafeBytes { try? socket.write($0) }
  }

  func writable() {}
  func hangup() {}
}

/// An HTTP/2 frame: 9-byte header, then `payload`.
private func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
  let length = UInt32(payload.count)
  return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
    + [
      UInt8(stream >> 24), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF),
      UInt8(stream & 0xFF),
    ] + payload
}

/// HPACK's literal field without indexing, with a new name.
private func literal(_ name: String, _ value: String) -> [UInt8] {
  [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
}

/// What the client does with answers no gRPC server sends.
@Suite struct HostileServerTests {
  /// An invalid `:status` makes nghttp2 reset the stream as it writes: the call
  /// ends inside the channel's flush, and a handler that closes the channel
  /// there (as `gaugectl watch` does before reconnecting) left the flush
  /// writing to a closed socket, a precondition failure.
  @Test func aHandlerMayCloseTheChannelWhenItsCallEndsInsideAFlush() throws {
    let listener = try ListeningSocket(address: try SocketAddress(parsing: "127.0.0.1:0"))
    defer { listener.close() }
    let loop = try EventLoop()
    let channel = try GRPCChannel.connect(to: listener.localAddress, on: loop)
    guard case .processed(let accepted) = try listener.accept() else {
      Issue.record("the connection was not accepted")
      return
    }
    let headers = literal(":status", "abc") + literal("content-type", "application/grpc")
    let server = ScriptedServer(
      socket: accepted,
      answer: frame(type: 4, flags: 0, stream: 0, [])
        + frame(type: 1, flags: 4, stream: 1, headers))
    try loop.register(fd: accepted.fd, interest: .readable, handler: server)
    var ended: GRPCStatus?
    let handler = CallbackCallHandler(onFinish: { status, _ in
      ended = status
      channel.close(status)
      loop.stop()
    })
    let call = channel.makeCall(path: "/test.Echo/Echo", handler: handler)
    call.send([])
    call.closeSend()
    loop.run()
    #expect(ended?.code == .internal)
    #expect(channel.isClosed)
    loop.deregister(fd: accepted.fd)
    accepted.close()
  }
}
