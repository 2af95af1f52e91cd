import GaugeAuth
import GaugeDomain

/// Making and revoking tokens while gauged runs, for TokenService (gRPC)
/// and `/tokens` (REST) alike. A new token is stored before it is
/// accepted; a revoked one is refused at once, and its live streams end.
public struct TokenAdministration: Sendable {
  public enum Failure: Error, Equatable {
    case invalid([FieldViolation])
    case alreadyExists(String)
    case notFound(String)
    /// The store failed; what the registry holds is said in the message.
    case unavailable(String)
  }

  public let registry: TokenRegistry
  /// nil for --memory servers: tokens made here last until gauged stops.
  private let persistence: (any TokenPersistence)?
  private let clock: @Sendable () -> Int64

  public init(
    registry: TokenRegistry, persistence: (any TokenPersistence)?,
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds
  ) {
    self.registry = registry
    self.persistence = persistence
    self.clock = clock
  }

  /// `scope` nil when the request named none (or one this server does not
  /// know); `expiresInMs` 0 for never.
  /// `writeRate` nil: the server's write rate limit.
  public func create(
    name: String, scope: Scope?, prefix: String, expiresInMs: Int64,
    writeRate: TokenBucket.Rate? = nil
  ) -> Result<(token: AccessToken, secret: String), Failure> {
    let violations = Self.violations(
      name: name, scope: scope, prefix: prefix, expiresInMs: expiresInMs)
    guard violations.isEmpty, let scope else { return .failure(.invalid(violations)) }
    let secret: String
    do {
      secret = try TokenSecret.generate()
    } catch {
      return .failure(.unavailable("libcrypto could not make random bytes"))
    }
    let now = clock()
    let token = AccessToken(
      name: name, scope: scope, reach: WidgetReach(prefix: prefix),
      digest: .sha256(of: secret), createdMs: now,
      expiresMs: expiresInMs > 0 ? now + expiresInMs : nil, writeRate: writeRate)
    guard registry.add(token) else {
      return .failure(.alreadyExists("a token named \"\(name)\" exists already"))
    }
    do throws(TokenPersistenceError) {
      try persistence?.insert(token)
    } catch {
      _ = registry.revoke(name: name)
      return .failure(.unavailable("the token was not stored: \(error.message)"))
    }
    return .success((token, secret))
  }

  /// A token's own write limit from a request's two numbers (0: absent):
  /// nil without a rate; the burst twice the rate unless given.
  public static func writeRate(perSecond: UInt32, burst: UInt32) -> TokenBucket.Rate? {
    guard perSecond > 0 else { return nil }
    return TokenBucket.Rate(
      perSecond: Double(perSecond), burst: burst > 0 ? Double(burst) : 2 * Double(perSecond))
  }

  /// Every rule a new token's fields break, in field order.
  public static func violations(name: String, scope: Scope?, prefix: String, expiresInMs: Int64)
    -> [FieldViolation]
  {
    var violations: [FieldViolation] = []
    if let violation = AccessToken.nameViolation(name) { violations.append(violation) }
    if scope == nil {
      violations.append(FieldViolation(field: "scope", description: "must be read, write or admin"))
    }
    if let violation = AccessToken.prefixViolation(prefix) { violations.append(violation) }
    if expiresInMs < 0 {
      violations.append(
        FieldViolation(field: "expires_in_ms", description: "must not be negative"))
    }
    return violations
  }

  public func revoke(name: String) -> Result<Void, Failure> {
    if let violation = AccessToken.nameViolation(name) { return .failure(.invalid([violation])) }
    // Refused from now on, even if the store fails below.
    guard registry.revoke(name: name) != nil else {
      return .failure(.notFound("no token is named \"\(name)\""))
    }
    do throws(TokenPersistenceError) {
      try persistence?.remove(name: name)
    } catch {
      return .failure(
        .unavailable(
          "the token is revoked until gauged restarts, but the store still holds it: "
            + error.message))
    }
    return .success(())
  }
}
