import GRPCTransport
import GaugeAuth
import GaugeDomain
import GaugeLog

/// The one authorization step every face goes through. While the server
/// has no tokens every request is granted everything at once, after one
/// relaxed atomic load and no string work; once it has some, the request's
/// bearer secret is hashed and looked up, and its token's scope and reach
/// decide. What a connection's `authorization` was found to be is kept in
/// the connection's memo while no token is added or revoked, so each
/// connection hashes its secret once.
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
  /// `authorization` and, for browsers, `cookie`, on a connection with
  /// `memo`; `nowMs` is the wall clock's unless a test brings its own.
  public func check(
    _ requirement: AccessRequirement, authorization: String?, cookie: String?,
    memo: CredentialMemo? = nil, nowMs: Int64? = nil
  ) -> AccessDecision {
    guard registry.requiresTokens, case .scope(let needed) = requirement else {
      return .granted(.everything)
    }
    let now = nowMs ?? WallClock.unixMilliseconds()
    if let memo, let authorization, let known = memo.conclusion(about: authorization) {
      if let known = known as? KnownBearer, known.holds(in: registry, atMs: now) {
        known.markUsed(in: registry, atMs: now)
        guard known.token.scope.covers(needed) else {
          return decision(for: known.token, needs: needed)
        }
        return .granted(known.grant)
      }
      memo.forget()
    }
    // Read first: a token revoked while this check runs moves it on, so
    // what the memo keeps is not trusted past the revocation.
    let generation = registry.generation
    let decision: AccessDecision
    switch authenticate(authorization: authorization, cookie: cookie, nowMs: now) {
    case .refused(let refusal):
      decision = .refused(refusal)
    case .token(let token, let fromAuthorization):
      if fromAuthorization, let memo, let authorization {
        memo.remember(
          KnownBearer(token: token, generation: generation, markedAtMs: now), about: authorization)
      }
      decision = self.decision(for: token, needs: needed)
    }
    if case .refused(let refusal) = decision, let log, log.enabled(.warn) {
      log.warn(
        "access_refused", "refused a request: \(refusal.message)",
        [LogField("reason", refusal.message)])
    }
    return decision
  }

  private func decision(for token: AccessToken, needs needed: Scope) -> AccessDecision {
    guard token.scope.covers(needed) else {
      return .refused(
        .forbidden("the token \"\(token.name)\" has scope \(token.scope); this needs \(needed)"))
    }
    return .granted(
      AccessGrant(reach: token.reach, tokenName: token.name, writeRate: token.writeRate))
  }

  private enum Authentication {
    case refused(AccessRefusal)
    /// A valid token, from the `authorization` or else the cookie.
    case token(AccessToken, fromAuthorization: Bool)
  }

  private func authenticate(authorization: String?, cookie: String?, nowMs: Int64)
    -> Authentication
  {
    var found = BearerCredential.fromAuthorization(authorization)
    let fromAuthorization = found != .none
    if !fromAuthorization { found = BearerCredential.fromCookie(cookie) }
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
    switch registry.authenticate(secret, nowMs: nowMs) {
    case .unknown:
      return .refused(.unauthenticated("the token is not known to this server"))
    case .expired(let name):
      return .refused(.unauthenticated("the token \"\(name)\" has expired"))
    case .valid(let token):
      return .token(token, fromAuthorization: fromAuthorization)
    }
  }
}
