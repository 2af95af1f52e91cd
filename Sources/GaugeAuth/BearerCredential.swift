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
    let trimmed = value.drop(while: { $0 == " " })
    guard trimmed.utf8.count > 7 else { return .malformed }
    let scheme = trimmed.prefix(6)
    guard scheme.lowercased() == "bearer", trimmed.dropFirst(6).first == " " else {
      return .malformed
    }
    let token = trimmed.dropFirst(7).drop(while: { $0 == " " })
    let end =
      token.lastIndex(where: { $0 != " " }).map { token.index(after: $0) } ?? token.startIndex
    let secret = token[..<end]
    return secret.isEmpty ? .malformed : .secret(secret)
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
