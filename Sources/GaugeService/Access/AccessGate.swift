import GaugeAuth
import GaugeDomain
import GaugeLog

/// The one authorization step every face goes through. While the server
/// has no tokens every request is granted everything at once, after one
/// relaxed atomic load and no string work; once it has some, the request's
/// bearer secret is hashed and looked up, and its token's scope and reach
/// decide.
public final class AccessGate: Sendable {
  public let registry: TokenRegistry
  /// Where refusals are logged (`access_refused`, warn): why, never the
  /// secret. nil logs nothing.
  private let log: EventLog?

  public init(registry: TokenRegistry, log: EventLog? = nil) {
    self.registry = registry
    self.log = log
  }

  /// A gate with no tokens, until some are added to its registry.
  public static func open() -> AccessGate { AccessGate(registry: TokenRegistry(tokens: [])) }

  public var requiresTokens: Bool { registry.requiresTokens }

  /// Decides for a request that needs `requirement`, carrying
  /// `authorization` and, for browsers, `cookie`; `nowMs` is the wall
  /// clock's unless a test brings its own.
  public func check(
    _ requirement: AccessRequirement, authorization: String?, cookie: String?,
    nowMs: Int64? = nil
  ) -> AccessDecision {
    let decision = decide(requirement, authorization: authorization, cookie: cookie, nowMs: nowMs)
    if case .refused(let refusal) = decision, let log, log.enabled(.warn) {
      log.warn(
        "access_refused", "refused a request: \(refusal.message)",
        [LogField("reason", refusal.message)])
    }
    return decision
  }

  private func decide(
    _ requirement: AccessRequirement, authorization: String?, cookie: String?, nowMs: Int64?
  ) -> AccessDecision {
    guard registry.requiresTokens, case .scope(let needed) = requirement else {
      return .granted(.everything)
    }
    var found = BearerCredential.fromAuthorization(authorization)
    if found == .none { found = BearerCredential.fromCookie(cookie) }
    let secret: Substring
    switch found {
    case .none:
      return .refused(
        .unauthenticated("this server needs a token: send authorization: Bearer gd_…"))
    case .malformed:
      return .refused(
        .unauthenticated("the authorization must be \"Bearer\" followed by a token"))
    case .secret(let text):
      secret = text
    }
    switch registry.authenticate(secret, nowMs: nowMs ?? WallClock.unixMilliseconds()) {
    case .unknown:
      return .refused(.unauthenticated("the token is not known to this server"))
    case .expired(let name):
      return .refused(.unauthenticated("the token \"\(name)\" has expired"))
    case .valid(let token):
      guard token.scope.covers(needed) else {
        return .refused(
          .forbidden(
            "the token \"\(token.name)\" has scope \(token.scope); this needs \(needed)"))
      }
      return .granted(
        AccessGrant(reach: token.reach, tokenName: token.name, writeRate: token.writeRate))
    }
  }
}
