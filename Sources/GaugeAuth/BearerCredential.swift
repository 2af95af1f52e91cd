/// Where a request's token is read from: `authorization: Bearer gd_…`
/// (gRPC metadata or an HTTP header), or for browsers' `EventSource`,
/// which cannot set headers, the cookie `POST /login` sets.
public enum BearerCredential {
  public static let cookieName = "gauged_token"

  public enum Found: Equatable, Sendable {
    case none
    /// Present but not `Bearer <token>`.
    case malformed
    case secret(Substring)
  }

  /// The token in an `authorization` value. The scheme is case-insensitive
  /// (RFC 9110 section 11.1).
  public static func fromAuthorization(_ value: String?) -> Found {
    guard let value else { return .none }
    // Byte offsets first, then one Substring: this runs on every call.
    let bytes = value.utf8
    var start = bytes.startIndex
    while start < bytes.endIndex, bytes[start] == UInt8(ascii: " ") {
      start = bytes.index(after: start)
    }
    let scheme = Array("bearer".utf8)
    var index = start
    for expected in scheme {
      guard index < bytes.endIndex, bytes[index] | 0x20 == expected else { return .malformed }
      index = bytes.index(after: index)
    }
    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") else { return .malformed }
    while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") {
      index = bytes.index(after: index)
    }
    var end = bytes.endIndex
    while end > index, bytes[bytes.index(before: end)] == UInt8(ascii: " ") {
      end = bytes.index(before: end)
    }
    guard index < end else { return .malformed }
    return .secret(Substring(value.utf8[index..<end]))
  }

  /// The token in a `cookie` header's `gauged_token`, if there is one.
  public static func fromCookie(_ value: String?) -> Found {
    guard let value else { return .none }
    for pair in value.split(separator: ";") {
      let trimmed = pair.drop(while: { $0 == " " })
      guard let equals = trimmed.firstIndex(of: "=") else { continue }
      guard trimmed[..<equals] == cookieName else { continue }
      let secret = trimmed[trimmed.index(after: equals)...]
      return secret.isEmpty ? .malformed : .secret(secret)
    }
    return .none
  }
}
