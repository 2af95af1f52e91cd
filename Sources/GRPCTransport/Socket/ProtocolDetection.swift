/// Which protocol a cleartext connection speaks, from its first bytes: the
/// HTTP/2 client preface means HTTP/2 with prior knowledge; anything that
/// departs from it is read as HTTP/1.1.
enum ProtocolDetection {
  enum Verdict {
    case http2
    case http1
    /// Every byte so far agrees with the preface: wait for more.
    case undecided
  }

  static let http2Preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

  static func verdict(_ bytes: some Collection<UInt8>) -> Verdict {
    for (byte, expected) in zip(bytes, http2Preface) where byte != expected {
      return .http1
    }
    return bytes.count >= http2Preface.count ? .http2 : .undecided
  }
}
