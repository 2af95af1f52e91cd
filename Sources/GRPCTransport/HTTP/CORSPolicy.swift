/// Which pages on other origins may read the server's answers (CORS, in the
/// Fetch standard's terms), and what that adds to an answer. Decisions only,
/// as pure functions of the request: `CORSResponder` applies them.
public struct CORSPolicy: Sendable, Equatable {
  public enum Origins: Sendable, Equatable {
    /// `*`: any page, never with credentials (browsers refuse `*` with them).
    case any
    /// These origins exactly, with credentials (cookies, HTTP auth).
    case listed(Set<String>)
  }

  /// Why a list of origins makes no policy; `description` is for the
  /// command line.
  public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case noOrigins
    case notAnOrigin(String, problem: String)
    case wildcardWithOrigins

    public var description: String {
      switch self {
      case .noOrigins:
        "no origin given"
      case .notAnOrigin(let text, let problem):
        "\"\(text)\" is not an origin like https://dash.example.com: \(problem)"
      case .wildcardWithOrigins:
        "* (any page, without credentials) cannot be combined with listed origins"
      }
    }
  }

  public let origins: Origins

  /// From configured origins: exact ones like `https://dash.example.com`,
  /// or `*` alone.
  public init(origins: [String]) throws(ConfigurationError) {
    guard !origins.isEmpty else { throw .noOrigins }
    let listed = origins.filter { $0 != "*" }
    if listed.isEmpty {
      self.origins = .any
      return
    }
    guard listed.count == origins.count else { throw .wildcardWithOrigins }
    for origin in listed {
      if let problem = WebOrigin.problem(origin) { throw .notAnOrigin(origin, problem: problem) }
    }
    self.origins = .listed(Set(listed))
  }

  /// What an answer to a request from `origin` (its `Origin`, nil when
  /// absent) carries, whatever it is. `vary: origin` goes on every answer,
  /// allowed or not: the same URL is answered differently by origin, and a
  /// cache must not hand one origin's answer to another.
  public func responseFields(origin: String?) -> HTTPFields {
    var fields = HTTPFields()
    if let allowed = allowedOrigin(origin) {
      appendGrant(allowed, to: &fields)
      fields.append("access-control-expose-headers", Self.exposedHeaders)
    }
    fields.append("vary", "origin")
    return fields
  }

  /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`)
  /// from an allowed origin; nil for every other request, which the faces
  /// answer as usual, so a refused page sees no grant.
  public func preflightResponse(to request: HTTPRequest) -> HTTPResponse? {
    guard request.method == "OPTIONS", request.headers["access-control-request-method"] != nil,
      let allowed = allowedOrigin(request.headers["origin"])
    else { return nil }
    var fields = HTTPFields()
    appendGrant(allowed, to: &fields)
    fields.append("access-control-allow-methods", Self.allowedMethods)
    // Echoed: the faces read only the fields they know, so any other a
    // client library wants to send (x-grpc-web, connect-*, x-user-agent)
    // does no harm.
    let requested = request.headers.values("access-control-request-headers")
      .map { $0.trimmingOptionalWhitespace() }.filter { !$0.isEmpty }
    if !requested.isEmpty {
      fields.append("access-control-allow-headers", requested.joined(separator: ", "))
    }
    fields.append("access-control-max-age", Self.preflightMaxAgeSeconds)
    fields.append("vary", "origin")
    return HTTPResponse(status: 204, headers: fields)
  }

  /// The `access-control-allow-origin` value for `origin`, or nil when it
  /// gets none.
  func allowedOrigin(_ origin: String?) -> String? {
    guard let origin else { return nil }
    switch origins {
    case .any: return "*"
    case .listed(let allowed): return allowed.contains(origin) ? origin : nil
    }
  }

  private func appendGrant(_ allowed: String, to fields: inout HTTPFields) {
    fields.append("access-control-allow-origin", allowed)
    if case .listed = origins { fields.append("access-control-allow-credentials", "true") }
  }

  /// What a page's script may read beyond the safelisted response fields:
  /// gRPC-Web's status (when it comes as fields rather than in the body),
  /// Connect's and HTTP's compression, and the REST face's `ETag`,
  /// `Location` and `Retry-After`.
  static let exposedHeaders =
    "grpc-status, grpc-message, grpc-status-details-bin, grpc-encoding, grpc-accept-encoding, "
    + "connect-content-encoding, connect-accept-encoding, content-encoding, etag, location, "
    + "retry-after"

  static let allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE"

  /// Two hours: Chromium's cap; Firefox allows a day.
  static let preflightMaxAgeSeconds = "7200"
}
