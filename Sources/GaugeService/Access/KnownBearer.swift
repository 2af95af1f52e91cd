import GaugeAuth
import GaugeDomain

/// What the gate found a connection's `authorization` to be: a valid
/// token, as of a registry generation. Kept in the connection's memo, so
/// used on its loop only.
final class KnownBearer {
  let token: AccessToken
  /// What the token grants, made once.
  let grant: AccessGrant
  let generation: UInt64
  /// When the registry last heard the token was used through this memo.
  private var markedAtMs: Int64

  init(token: AccessToken, generation: UInt64, markedAtMs: Int64) {
    self.token = token
    self.grant = AccessGrant(reach: token.reach, tokenName: token.name, writeRate: token.writeRate)
    self.generation = generation
    self.markedAtMs = markedAtMs
  }

  /// No token was added or revoked since, and the token has not expired.
  func holds(in registry: TokenRegistry, atMs now: Int64) -> Bool {
    generation == registry.generation && !token.hasExpired(atMs: now)
  }

  /// Tells the registry of a use, at most once a second: it keeps last-use
  /// times to the second.
  func markUsed(in registry: TokenRegistry, atMs now: Int64) {
    guard now - markedAtMs >= 1000 else { return }
    markedAtMs = now
    registry.markUsed(token.digest, nowMs: now)
  }
}
