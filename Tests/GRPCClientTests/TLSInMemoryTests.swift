import GRPCClient
import GRPCCore
import GRPCTransportTesting
import GaugeTLS
import Testing

/// The client and server connections of `InMemoryPair` with a TLS session
/// on each side, as the socket glue puts them (`GRPCChannel`,
/// `ConnectionHandler`): HTTP/2 only after the handshake, every byte
/// between them ciphertext.
@Suite struct TLSInMemoryTests {
  final class SecuredPair {
    let pair = InMemoryPair()
    let clientTLS: TLSSession
    let serverTLS: TLSSession
    /// Every byte that crossed, both ways: none of it may be plaintext.
    var wire: [UInt8] = []
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)

    init() throws {
      let files = try TestCertificates.write()
      defer { files.remove() }
      serverTLS = try TLSSession(
        context: try TLSContext.server(
          certificateChainFile: files.certificate, privateKeyFile: files.key),
        role: .server)
      clientTLS = try TLSSession(
        context: try TLSContext.client(caFile: files.ca), role: .client(serverName: "localhost"))
    }

    deinit { buffer.deallocate() }

    /// One side's plaintext, encrypted once its handshake is done, and the
    /// ciphertext it owes the other side.
    private func outgoing(_ session: TLSSession, drain: (inout [UInt8]) -> Void) -> [UInt8] {
      if session.isEstablished {
        var plaintext: [UInt8] = []
        drain(&plaintext)
        if !plaintext.isEmpty { #expect(plaintext.withUnsafeBytes { session.send($0) }) }
      }
      var ciphertext: [UInt8] = []
      session.takeCiphertext(into: &ciphertext)
      return ciphertext
    }

    /// Ciphertext in, plaintext to the connection; failures are issues.
    private func incoming(
      _ ciphertext: [UInt8], _ session: TLSSession, deliver: (UnsafeRawBufferPointer) -> Void
    ) {
      wire += ciphertext
      ciphertext.withUnsafeBytes { session.receive($0) }
      while true {
        switch session.next(plaintextInto: buffer) {
        case .needsInput, .peerClosed: return
        case .handshakeCompleted: #expect(session.negotiatedProtocol == "h2")
        case .plaintext(let count): deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        case .failed(let failure): Issue.record("TLS failed: \(failure)")
        }
      }
    }

    func exchange() {
      // The ClientHello: the client speaks first, as GRPCChannel makes it.
      incoming([], clientTLS) { _ in }
      for _ in 0..<1000 {
        let toServer = outgoing(clientTLS) { _ = pair.client.drainOutput(into: &$0) }
        incoming(toServer, serverTLS) { _ = pair.server.receive($0) }
        let toClient = outgoing(serverTLS) { _ = pair.server.drainOutput(into: &$0) }
        incoming(toClient, clientTLS) { _ = pair.client.receive($0) }
        if toServer.isEmpty && toClient.isEmpty { return }
      }
    }
  }

  @Test func unaryAndStreamingCallsRunOverTLS() throws {
    let secured = try SecuredPair()
    var response: ClientResponse?
    secured.pair.client.unary(path: "/test.Echo/Echo", request: bytes("over TLS")) {
      response = $0
    }
    let (call, handler) = secured.pair.call("Repeat")
    call.send(bytes("3"))
    call.closeSend()
    secured.exchange()
    #expect(secured.clientTLS.isEstablished && secured.serverTLS.isEstablished)
    #expect(try response?.singleMessage() == bytes("over TLS"))
    #expect(handler.status == .ok)
    #expect(handler.texts == ["0", "1", "2"])
    // Neither the preface nor the message crossed in the clear.
    let wire = String(decoding: secured.wire, as: UTF8.self)
    #expect(!wire.contains("PRI * HTTP/2.0"))
    #expect(!wire.contains("over TLS"))
    #expect(!wire.contains("/test.Echo/"))
  }
}
