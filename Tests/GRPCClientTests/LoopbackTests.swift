import GRPCClient
import GRPCCore
import GRPCTransport
import GaugeIO
import Glibc
import Synchronization
import Testing

/// The socket glue and the blocking wrapper against a real `GRPCServer` on
/// loopback.
@Suite struct LoopbackTests {
  private static func startServer() throws -> GRPCServer {
    let server = try GRPCServer(
      address: try SocketAddress(parsing: "127.0.0.1:0"), threads: 1,
      configuration: ServerConfiguration(), services: [EchoService()])
    server.start()
    return server
  }

  private static func unusedSocketPath() -> String {
    "/tmp/grpc-loopback-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
  }

  @Test func oneServerAnswersOnTCPAndAUnixSocket() throws {
    let path = Self.unusedSocketPath()
    let server = try GRPCServer(
      addresses: [
        try SocketAddress(parsing: "127.0.0.1:0"), try SocketAddress(parsing: "unix:\(path)"),
      ],
      threads: 2, configuration: ServerConfiguration(), services: [EchoService()])
    server.start()
    #expect(server.localAddresses.count == 2)
    #expect(server.localAddresses[1].unixPath == path)
    for address in server.localAddresses {
      let client = try BlockingGRPCClient(address: address)
      defer { client.close() }
      let echo = client.unary(path: "/test.Echo/Echo", request: bytes("via \(address)"))
      #expect(try echo.singleMessage() == bytes("via \(address)"))
    }
    server.stop()
    #expect(access(path, F_OK) != 0, "the socket file outlived the server")
  }

  @Test func aSecondAddressThatCannotBeBoundReleasesTheFirst() throws {
    let first = try SocketAddress(parsing: "unix:\(Self.unusedSocketPath())")
    let taken = try ListeningSocket(address: SocketAddress(parsing: "127.0.0.1:0"))
    defer { taken.close() }
    #expect {
      _ = try GRPCServer(
        addresses: [first, taken.localAddress], threads: 1, configuration: ServerConfiguration(),
        services: [EchoService()])
    } throws: { error in
      guard let failure = error as? BindFailure else { return false }
      return failure.address == taken.localAddress && failure.error.errno == EADDRINUSE
        && "\(failure)".hasPrefix("cannot serve on \(taken.localAddress): bind: ")
    }
    #expect(access(first.unixPath!, F_OK) != 0, "the first listener's file was left behind")
  }

  @Test func blockingUnaryServerStreamingAndErrors() throws {
    let server = try Self.startServer()
    defer { server.stop() }
    let client = try BlockingGRPCClient(address: server.localAddress)
    defer { client.close() }

    let echo = client.unary(path: "/test.Echo/Echo", request: bytes("over tcp"))
    #expect(try echo.singleMessage() == bytes("over tcp"))

    let failed = client.unary(path: "/test.Echo/Fail", request: bytes("no: because"))
    #expect(failed.status.code == .invalidArgument)
    #expect(failed.status.message == "no: because")
    #expect(failed.status.details == EchoService.failureDetails)

    let received = Mutex<[String]>([])
    let streamed = client.serverStreaming(path: "/test.Echo/Repeat", request: bytes("50")) {
      message in received.withLock { $0.append(String(decoding: message, as: UTF8.self)) }
    }
    #expect(streamed.status == .ok)
    #expect(received.withLock { $0 } == (0..<50).map(String.init))
  }

  @Test func requestStreamPushesMoreThanItsWindowWithBackpressure() throws {
    let server = try Self.startServer()
    defer { server.stop() }
    let client = try BlockingGRPCClient(address: server.localAddress)
    defer { client.close() }
    let stream = client.requestStream(path: "/test.Echo/Count")
    let total = Int(BlockingRequestStream.window) * 5
    for index in 0..<total {
      #expect(stream.send(bytes("value \(index)")))
    }
    let response = stream.finish()
    #expect(try response.singleMessage() == bytes("\(total)"))
  }

  @Test func requestStreamSendFailsOnceTheCallHasEnded() throws {
    let server = try Self.startServer()
    defer { server.stop() }
    let client = try BlockingGRPCClient(address: server.localAddress)
    defer { client.close() }
    // Hold never answers: the deadline ends the call while we still send,
    // and a producer blocked on its window wakes up to find it over.
    let stream = client.requestStream(path: "/test.Echo/Hold", timeout: .milliseconds(100))
    var accepted = 0
    while stream.send(bytes("x")) {
      accepted += 1
      if accepted > 10_000_000 { break }
    }
    #expect(stream.finish().status.code == .deadlineExceeded)
  }

  @Test func deadlineEndsAHeldCall() throws {
    let server = try Self.startServer()
    defer { server.stop() }
    let client = try BlockingGRPCClient(address: server.localAddress)
    defer { client.close() }
    let response = client.unary(path: "/test.Echo/Hold", request: [], timeout: .milliseconds(50))
    #expect(response.status.code == .deadlineExceeded)
  }

  @Test func refusedConnectionThrows() throws {
    // A port that was free a moment ago and has no listener now.
    let listener = try ListeningSocket(address: try SocketAddress(parsing: "127.0.0.1:0"))
    let address = listener.localAddress
    listener.close()
    #expect(throws: IOError(call: "connect", errno: ECONNREFUSED)) {
      _ = try BlockingGRPCClient(address: address)
    }
  }

  @Test func stoppedServerFailsLiveAndLaterCallsWithUnavailable() throws {
    let server = try Self.startServer()
    let client = try BlockingGRPCClient(address: server.localAddress)
    defer { client.close() }
    let held = client.requestStream(path: "/test.Echo/Hold")
    held.send([])
    #expect(
      try client.unary(path: "/test.Echo/Echo", request: bytes("up")).singleMessage() == bytes("up")
    )
    server.stop()
    #expect(held.finish().status.code == .unavailable)
    #expect(client.unary(path: "/test.Echo/Echo", request: []).status.code == .unavailable)
  }

  /// What a benchmark does: one loop, several connections, many calls in
  /// flight, all driven by callbacks.
  @Test func oneLoopDrivesManyCallsOverSeveralChannels() throws {
    let server = try Self.startServer()
    defer { server.stop() }
    let loop = try EventLoop()
    let channels = try (0..<3).map { _ in
      try GRPCChannel.connect(to: server.localAddress, on: loop)
    }
    let perChannel = 1000
    var finished = 0
    var failures: [GRPCStatus] = []
    for (number, channel) in channels.enumerated() {
      for index in 0..<perChannel {
        let text = "\(number)-\(index)"
        channel.connection.unary(path: "/test.Echo/Echo", request: bytes(text)) { response in
          if (try? response.singleMessage()) != bytes(text) { failures.append(response.status) }
          finished += 1
          if finished == channels.count * perChannel { loop.stop() }
        }
      }
    }
    loop.run()
    #expect(finished == 3000)
    #expect(failures.isEmpty)
    for channel in channels { channel.close() }
  }
}
