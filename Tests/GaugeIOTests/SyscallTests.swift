import GaugeIO
import Glibc
import Testing

@Suite struct SyscallTests {
  @Test func errorDescriptionNamesTheCallAndErrno() {
    #expect(
      IOError(call: "accept4", errno: EMFILE).description
        == "accept4: Too many open files (errno 24)")
  }

  @Test func listeningOnPortZeroReportsTheChosenPort() throws {
    let listener = try ListeningSocket(address: SocketAddress(parsing: "127.0.0.1:0"))
    defer { listener.close() }
    #expect(listener.localAddress.port != 0)
    #expect(listener.localAddress.description == "127.0.0.1:\(listener.localAddress.port)")
  }

  @Test func bindingAnAddressInUseThrowsABindError() throws {
    let first = try ListeningSocket(address: SocketAddress(parsing: "127.0.0.1:0"))
    defer { first.close() }
    #expect(throws: IOError(call: "bind", errno: EADDRINUSE)) {
      _ = try ListeningSocket(address: first.localAddress)
    }
  }

  @Test func connectingToAClosedPortThrowsAConnectError() throws {
    let listener = try ListeningSocket(address: SocketAddress(parsing: "127.0.0.1:0"))
    let address = listener.localAddress
    listener.close()
    #expect(throws: IOError(call: "connect", errno: ECONNREFUSED)) {
      _ = try ConnectedSocket.connect(to: address)
    }
  }

  @Test func acceptWithoutAPendingConnectionWouldBlock() throws {
    let listener = try ListeningSocket(address: SocketAddress(parsing: "127.0.0.1:0"))
    defer { listener.close() }
    guard case .wouldBlock = try listener.accept() else {
      Issue.record("accept did not report wouldBlock")
      return
    }
  }

  @Test func readReportsWouldBlockThenDataThenEndOfFile() throws {
    let (client, server) = try connectedPair(on: "127.0.0.1:0")
    var buffer = [UInt8](repeating: 0, count: 16)
    let emptyRead = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
    #expect(emptyRead == .wouldBlock)

    try client.writeAll("hi")
    #expect(try server.read(count: 2) == "hi")

    client.close()
    #expect(server.waitUntilReady(events: POLLIN, timeout: .seconds(5)))
    let endOfFile = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
    #expect(endOfFile == .processed(0))
  }

  @Test func vectoredWriteSendsTheBuffersInOrder() throws {
    let (client, server) = try connectedPair(on: "127.0.0.1:0")
    let parts = ["HEAD", "ER", "body"].map { Array($0.utf8) }
    let written = try parts[0].withUnsafeBytes { first in
      try parts[1].withUnsafeBytes { second in
        try parts[2].withUnsafeBytes { third in
          let iovecs = [first, second, third].map {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
          }
          return try iovecs.withUnsafeBufferPointer { try client.write(vectored: $0) }
        }
      }
    }
    #expect(written == .processed(10))
    #expect(try server.read(count: 10) == "HEADERbody")
  }

  /// Without MSG_NOSIGNAL the first write after the reset would kill the test process.
  @Test func writingToAClosedConnectionThrowsInsteadOfRaisingSIGPIPE() throws {
    let (client, server) = try connectedPair(on: "127.0.0.1:0")
    server.close()
    let failure = #expect(throws: IOError.self) {
      for _ in 0..<100 {
        try client.writeAll("ping")
        _ = client.waitUntilReady(events: POLLIN, timeout: .milliseconds(10))
      }
    }
    #expect(failure?.call == "send")
    #expect(failure?.errno == EPIPE || failure?.errno == ECONNRESET)
  }

  @Test func connectsOverIPv6Loopback() throws {
    let (client, server) = try connectedPair(on: "[::1]:0")
    try client.writeAll("v6")
    #expect(try server.read(count: 2) == "v6")
  }
}
