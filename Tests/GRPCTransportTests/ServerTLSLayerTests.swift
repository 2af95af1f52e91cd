import Testing

@testable import GRPCTransport

/// What a TLS listener tells a cleartext client, and how it recognises one.
@Suite struct ServerTLSLayerTests {
  @Test func cleartextHTTPIsToldFromTLSByItsFirstByte() {
    for method in ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH", "PRI"] {
      #expect(ServerTLSLayer.startsCleartextHTTP(method.utf8.first!))
    }
    // A TLS handshake record, an SSLv2-style hello, and a lower-case letter,
    // which no method starts with.
    for first: UInt8 in [0x16, 0x80, UInt8(ascii: "g")] {
      #expect(!ServerTLSLayer.startsCleartextHTTP(first))
    }
  }

  @Test func theRefusalIsACompleteHTTP1ProblemThatClosesTheConnection() throws {
    let text = String(decoding: ServerTLSLayer.plaintextRefusal, as: UTF8.self)
    let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
    try #require(parts.count == 2)
    let head = parts[0].split(separator: "\r\n")
    #expect(head.first == "HTTP/1.1 400 Bad Request")
    #expect(head.contains("content-type: application/problem+json"))
    #expect(head.contains("connection: close"))
    #expect(head.contains("content-length: \(parts[1].utf8.count)"))
    #expect(parts[1].contains("\"status\":400"))
    #expect(parts[1].contains("this port speaks TLS only"))
  }
}
