import GaugeDomain
import Synchronization

/// The tokens a server accepts, found by the SHA-256 of the secret a
/// request carries: one hash and one dictionary lookup per request, then a
/// constant-time comparison of the digests. Shared by every loop.
public final class TokenRegistry: Sendable {
  public enum Authentication: Equatable, Sendable {
    case valid(AccessToken)
    /// No token has this secret (or the text is not a secret at all).
    case unknown
    case expired(name: String)
  }

  private struct State {
    var byDigest: [TokenDigest: AccessToken] = [:]
  }

  private let state: Mutex<State>

  public init(tokens: [AccessToken]) {
    var initial = State()
    for token in tokens { initial.byDigest[token.digest] = token }
    state = Mutex(initial)
  }

  public var isEmpty: Bool { state.withLock { $0.byDigest.isEmpty } }

  /// The tokens, by name.
  public var tokens: [AccessToken] {
    state.withLock { Array($0.byDigest.values) }.sorted { $0.name < $1.name }
  }

  /// Checks `secret` at `nowMs`, and marks a valid token used then.
  public func authenticate(_ secret: some StringProtocol, nowMs: Int64) -> Authentication {
    guard TokenSecret.isWellFormed(secret) else { return .unknown }
    let digest = TokenDigest.sha256(of: secret)
    return state.withLock { state -> Authentication in
      guard var token = state.byDigest[digest], token.digest.matches(digest) else {
        return .unknown
      }
      if token.hasExpired(atMs: nowMs) { return .expired(name: token.name) }
      token.lastUsedMs = nowMs
      state.byDigest[digest] = token
      return .valid(token)
    }
  }

  /// Adds `token`; false when one of that name exists already.
  public func add(_ token: AccessToken) -> Bool {
    state.withLock { state in
      guard !state.byDigest.values.contains(where: { $0.name == token.name }) else { return false }
      state.byDigest[token.digest] = token
      return true
    }
  }

  /// Removes the token named `name`; the removed token, if there was one.
  public func revoke(name: String) -> AccessToken? {
    state.withLock { state in
      guard let found = state.byDigest.first(where: { $0.value.name == name }) else { return nil }
      state.byDigest[found.key] = nil
      return found.value
    }
  }
}
