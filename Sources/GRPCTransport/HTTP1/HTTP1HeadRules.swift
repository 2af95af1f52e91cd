/// What RFC 9112 makes a server refuse in a request head and
/// libhttp-parser lets through: checked once the head is read, before any
/// face sees the request.
enum HTTP1HeadRules {
  static func violation(of head: HTTP1RequestHead, major: Int) -> HTTP1RequestParser.Event? {
    guard major == 1 else {
      return .failure(status: 505, detail: "only HTTP/1.0 and HTTP/1.1 are spoken here")
    }
    // Whitespace between a name and its colon has smuggled requests past
    // proxies that read the field differently (section 5.1).
    var badName: String?
    var hosts = 0
    var codings: [String] = []
    head.fields.forEachField { name, value in
      if badName == nil, !isToken(name) { badName = String(decoding: name, as: UTF8.self) }
      if HTTPFields.name(name, is: "host") { hosts += 1 }
      if HTTPFields.name(name, is: "transfer-encoding") {
        codings += String(decoding: value, as: UTF8.self).lowercased().split(separator: ",")
          .map { $0.trimmingOptionalWhitespace() }
      }
    }
    if let badName {
      return .failure(
        status: 400, detail: "\"\(badName)\" is not a field name (no spaces before the colon)")
    }
    if head.version == .http1_1, hosts != 1 {
      return .failure(
        status: 400,
        detail: hosts == 0
          ? "an HTTP/1.1 request needs a Host field" : "a request may carry one Host field")
    }
    // libhttp-parser reads `gzip, chunked` as chunked and drops the gzip:
    // a face would get still-encoded bytes (section 6.1 answers 501).
    if !codings.isEmpty, codings != ["chunked"] {
      let named = codings.first { $0 != "chunked" } ?? "chunked"
      return .failure(
        status: 501, detail: "transfer coding \(named) is not supported; send chunked alone")
    }
    return nil
  }

  /// RFC 9110's token: the characters a field name may hold.
  static func isToken(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    !name.isEmpty
      && name.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}
