/// Serializes a response head as RFC 9112 lays it out. Faces never set
/// framing fields; the session adds `content-length` or
/// `transfer-encoding` and `connection` itself.
enum HTTP1ResponseHead {
  enum Framing: Equatable {
    case length(Int)
    case chunked
    /// The body ends when the connection closes (HTTP/1.0 streams).
    case untilClose
  }

  /// `http1_0Peer`: a keep-alive answer to HTTP/1.0 says so, since 1.0
  /// closes by default.
  static func bytes(
    status: Int, headers: HTTPFields, framing: Framing, keepAlive: Bool, http1_0Peer: Bool = false
  ) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(160)
    out += statusLine(status)
    headers.forEachField { name, value in
      guard !isFraming(name) else { return }
      out.append(contentsOf: name)
      out.append(UInt8(ascii: ":"))
      out.append(UInt8(ascii: " "))
      out.append(contentsOf: value)
      out.append(0x0D)
      out.append(0x0A)
    }
    switch framing {
    // No length on 1xx and 204 (RFC 9110 section 8.6): they have no content.
    case .length(let count) where status >= 200 && status != 204:
      out += contentLengthName
      out += String(count).utf8
      out += crlf
    case .length: break
    case .chunked: out += chunkedField
    case .untilClose: break
    }
    if !keepAlive {
      out += closeField
    } else if http1_0Peer {
      out += keepAliveField
    }
    out += crlf
    return out
  }

  private static let crlf: [UInt8] = [0x0D, 0x0A]
  private static let contentLengthName = Array("content-length: ".utf8)
  private static let chunkedField = Array("transfer-encoding: chunked\r\n".utf8)
  private static let closeField = Array("connection: close\r\n".utf8)
  private static let keepAliveField = Array("connection: keep-alive\r\n".utf8)
  private static let okLine = Array("HTTP/1.1 200 OK\r\n".utf8)

  private static func statusLine(_ status: Int) -> [UInt8] {
    if status == 200 { return okLine }
    return Array("HTTP/1.1 \(status) \(HTTPStatusText.reason(status))\r\n".utf8)
  }

  private static func isFraming(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    HTTPFields.name(name, is: "content-length") || HTTPFields.name(name, is: "transfer-encoding")
      || HTTPFields.name(name, is: "connection")
  }

  /// One chunk of a chunked body.
  static func appendChunk(_ bytes: [UInt8], to output: inout [UInt8]) {
    guard !bytes.isEmpty else { return }
    output.append(contentsOf: String(bytes.count, radix: 16).utf8)
    output.append(contentsOf: [0x0D, 0x0A])
    output.append(contentsOf: bytes)
    output.append(contentsOf: [0x0D, 0x0A])
  }

  static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
  static let continueInterim: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
