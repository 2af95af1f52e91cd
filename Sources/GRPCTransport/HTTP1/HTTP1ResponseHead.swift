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
    var text = "HTTP/1.1 \(status) \(HTTPStatusText.reason(status))\r\n"
    for field in headers where !isFraming(field.name) {
      text += field.name
      text += ": "
      text += field.value
      text += "\r\n"
    }
    switch framing {
    // No length on 1xx and 204 (RFC 9110 section 8.6): they have no content.
    case .length(let count) where status >= 200 && status != 204:
      text += "content-length: \(count)\r\n"
    case .length: break
    case .chunked: text += "transfer-encoding: chunked\r\n"
    case .untilClose: break
    }
    if !keepAlive {
      text += "connection: close\r\n"
    } else if http1_0Peer {
      text += "connection: keep-alive\r\n"
    }
    text += "\r\n"
    return Array(text.utf8)
  }

  private static func isFraming(_ name: String) -> Bool {
    name == "content-length" || name == "transfer-encoding" || name == "connection"
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
