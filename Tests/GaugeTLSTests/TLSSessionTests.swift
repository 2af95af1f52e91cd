import GRPCTransportTesting
import GaugeTLS
import Testing

/// A server session and a client session talking to each other through
/// memory: every byte one writes is pushed into the other.
@Suite struct TLSSessionTests {
  /// Moves ciphertext both ways until neither side has anything to say,
  /// collecting what each side yielded.
  final class Pair {
    let server: TLSSession
    let client: TLSSession
    var serverEvents: [String] = []
    var clientEvents: [String] = []
    var serverPlaintext: [UInt8] = []
    var clientPlaintext: [UInt8] = []

    init(server: TLSSession, client: TLSSession) {
      self.server = server
      self.client = client
    }

    func pump() {
      var rounds = 0
      repeat {
        rounds += 1
        Self.drain(client, events: &clientEvents, plaintext: &clientPlaintext)
        Self.move(from: client, to: server)
        Self.drain(server, events: &serverEvents, plaintext: &serverPlaintext)
        Self.move(from: server, to: client)
      } while (client.pendingCiphertext > 0 || server.pendingCiphertext > 0 || rounds < 2)
        && rounds < 20
      Self.drain(client, events: &clientEvents, plaintext: &clientPlaintext)
    }

    private static func move(from sender: TLSSession, to receiver: TLSSession) {
      var bytes: [UInt8] = []
      sender.takeCiphertext(into: &bytes)
      bytes.withUnsafeBytes { receiver.receive($0) }
    }

    /// Stops at the session's end, which is reported once.
    private static func drain(
      _ session: TLSSession, events: inout [String], plaintext: inout [UInt8]
    ) {
      if let last = events.last, last == "closed" || last.hasPrefix("failed") { return }
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
      defer { buffer.deallocate() }
      while true {
        switch session.next(plaintextInto: buffer) {
        case .needsInput: return
        case .handshakeCompleted: events.append("handshake")
        case .plaintext(let count): plaintext += buffer[0..<count]
        case .peerClosed:
          events.append("closed")
          return
        case .failed(let failure):
          events.append("failed: \(failure)")
          return
        }
      }
    }
  }

  static func pair(serverName: String = "localhost", trustCA: Bool = true) throws -> Pair {
    let files = try TestCertificates.write()
    defer { files.remove() }
    let serverContext = try TLSContext.server(
      certificateChainFile: files.certificate, privateKeyFile: files.key)
    let clientContext = try TLSContext.client(caFile: trustCA ? files.ca : files.certificate)
    return Pair(
      server: try TLSSession(context: serverContext, role: .server),
      client: try TLSSession(context: clientContext, role: .client(serverName: serverName)))
  }

  @Test func handshakeNegotiatesH2AndCarriesBytesBothWays() throws {
    let pair = try Self.pair()
    pair.pump()
    #expect(pair.serverEvents == ["handshake"])
    #expect(pair.clientEvents == ["handshake"])
    #expect(pair.server.negotiatedProtocol == "h2")
    #expect(pair.client.negotiatedProtocol == "h2")
    #expect(pair.server.protocolVersion == "TLSv1.3")

    let request = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    #expect(request.withUnsafeBytes { pair.client.send($0) })
    let answer = Array(repeating: UInt8(7), count: 50_000)
    #expect(answer.withUnsafeBytes { pair.server.send($0) })
    pair.pump()
    #expect(pair.serverPlaintext == request)
    #expect(pair.clientPlaintext == answer)
  }

  @Test func anIPAddressIsCheckedAgainstTheCertificatesAddresses() throws {
    let pair = try Self.pair(serverName: "127.0.0.1")
    pair.pump()
    #expect(pair.clientEvents == ["handshake"])
  }

  @Test func aNameTheCertificateDoesNotCarryFailsOnBothSides() throws {
    let pair = try Self.pair(serverName: "gauged.example")
    pair.pump()
    #expect(pair.clientEvents.count == 1)
    #expect(pair.clientEvents.first?.contains("hostname mismatch") == true)
    // The client's alert reaches the server.
    #expect(pair.serverEvents.first?.hasPrefix("failed") == true)
    #expect(!pair.server.isEstablished)
  }

  @Test func anUntrustedCertificateFailsVerification() throws {
    // The server's own certificate as the only root: it is not a CA.
    let pair = try Self.pair(trustCA: false)
    pair.pump()
    #expect(pair.clientEvents.first?.contains("certificate verify failed") == true)
  }

  @Test func aGarbageClientHelloFailsWithAnAlert() throws {
    let pair = try Self.pair()
    let garbage: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 0xde, 0xad, 0xbe, 0xef, 0x00]
    garbage.withUnsafeBytes { pair.server.receive($0) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
    defer { buffer.deallocate() }
    guard case .failed = pair.server.next(plaintextInto: buffer) else {
      Issue.record("garbage was taken for a ClientHello")
      return
    }
    // The alert, five bytes of record header and two of alert.
    var alert: [UInt8] = []
    pair.server.takeCiphertext(into: &alert)
    #expect(alert.first == 0x15)
    #expect(!garbage.withUnsafeBytes { pair.server.send($0) })
  }

  @Test func closeNotifyEndsThePeersSession() throws {
    let pair = try Self.pair()
    pair.pump()
    pair.server.close()
    pair.pump()
    #expect(pair.clientEvents == ["handshake", "closed"])
    let late = Array("late".utf8)
    #expect(!late.withUnsafeBytes { pair.server.send($0) })
  }

  @Test func unreadableFilesAreNamed() throws {
    let files = try TestCertificates.write()
    defer { files.remove() }
    #expect {
      try TLSContext.server(
        certificateChainFile: files.directory + "/missing.pem", privateKeyFile: files.key)
    } throws: { error in
      (error as? TLSFailure)?.description.contains("missing.pem") == true
    }
    // The CA's certificate with the server's key: they do not match.
    #expect {
      try TLSContext.server(certificateChainFile: files.ca, privateKeyFile: files.key)
    } throws: { error in
      let text = (error as? TLSFailure)?.description ?? ""
      return text.contains("server.key") && text.contains("mismatch")
    }
  }
}
