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
    if let bad = head.fields.first(where: { !isToken($0.name) }) {
      return .failure(
        status: 400, detail: "\"\(bad.name)\" is not a field name (no spaces before the colon)")
    }
    let hosts = head.fields.count { isNamed($0.name, "host") }
    if head.version == .http1_1, hosts != 1 {
      return .failure(
        status: 400,
        detail: hosts == 0
          ? "an HTTP/1.1 request needs a Host field" : "a request may carry one Host field")
    }
    // libhttp-parser reads `gzip, chunked` as chunked and drops the gzip:
    // a face would get still-encoded bytes (section 6.1 answers 501).
    let codings = head.fields.filter { isNamed($0.name, "transfer-encoding") }
      .flatMap { $0.value.lowercased().split(separator: ",") }
      .map { $0.trimmingOptionalWhitespace() }
    if !codings.isEmpty, codings != ["chunked"] {
      let named = codings.first { $0 != "chunked" } ?? "chunked"
      return .failure(
        status: 501, detail: "transfer coding \(named) is not supported; send chunked alone")
    }
    return nil
  }

  /// `name` is `lowercased` in any case, compared without making a String.
  static func isNamed(_ name: String, _ lowercased: StaticString) -> Bool {
    lowercased.withUTF8Buffer { expected in
      name.utf8.count == expected.count
        && zip(name.utf8, expected).allSatisfy { byte, wanted in
          byte == wanted
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == wanted)
        }
    }
  }

  /// RFC 9110's token: the characters a field name may hold.
  static func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}
