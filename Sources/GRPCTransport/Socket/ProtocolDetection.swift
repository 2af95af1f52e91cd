/// Which protocol a cleartext connection speaks, from its first bytes: the
/// HTTP/2 client preface means HTTP/2 with prior knowledge; anything that
/// departs from it within its first line is read as HTTP/1.1. A client that
/// sends the preface's first line (`PRI * HTTP/2.0`, a method no HTTP/1.1
/// request may use) and then something else sent a broken preface: HTTP/2
/// refuses it, and the connection ends without an HTTP/1.1 answer.
enum ProtocolDetection {
  enum Verdict {
    case http2
    case http1
    /// Every byte so far agrees with the preface: wait for more.
    case undecided
  }

  static let http2Preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

  /// `PRI * HTTP/2.0\r\n`.
  static let prefaceFirstLineLength = 16

  static func verdict(_ bytes: some Collection<UInt8>) -> Verdict {
    for (offset, (byte, expected)) in zip(bytes, http2Preface).enumerated() where byte != expected {
      return offset < prefaceFirstLineLength ? .http1 : .http2
    }
    return bytes.count >= http2Preface.count ? .http2 : .undecided
  }
}
