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

  static func bytes(
    status: Int, headers: HTTPFields, framing: Framing, keepAlive: Bool
  ) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(HTTPStatusText.reason(status))\r\n"
    for field in headers where !isFraming(field.name) {
      text += field.name
      text += ": "
      text += field.value
      text += "\r\n"
    }
    switch framing {
    // A 204 has no body and must not say how long it is (RFC 9110
    // section 8.6): clients may read a length there as a body to come.
    case .length where status == 204: break
    case .length(let count): text += "content-length: \(count)\r\n"
    case .chunked: text += "transfer-encoding: chunked\r\n"
    case .untilClose: break
    }
    if !keepAlive { text += "connection: close\r\n" }
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
