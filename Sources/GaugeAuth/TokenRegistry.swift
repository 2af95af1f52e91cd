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
    /// Called when the token of that name is revoked, by watch id.
    var watchers: [String: [UInt64: @Sendable () -> Void]] = [:]
    var nextWatchID: UInt64 = 0
    /// Tokens used since `takeUses` last ran.
    var usedSinceTaken: Set<TokenDigest> = []
  }

  private let state: Mutex<State>
  /// Set once any token exists, and never cleared: a server that has had
  /// tokens keeps asking for them after the last is revoked, rather than
  /// opening up to whoever reaches it.
  private let enforcing: Atomic<Bool>
  /// Changes whenever a token is added or revoked: what was concluded about
  /// a secret under one generation holds while it lasts.
  private let changes = Atomic<UInt64>(0)

  public init(tokens: [AccessToken]) {
    var initial = State()
    for token in tokens { initial.byDigest[token.digest] = token }
    state = Mutex(initial)
    enforcing = Atomic(!tokens.isEmpty)
  }

  /// Whether requests need a token; read without a lock on every request.
  public var requiresTokens: Bool { enforcing.load(ordering: .relaxed) }

  /// The registry's generation, read without a lock: it moves on with every
  /// token added or revoked. Read before `authenticate`, it dates what that
  /// concluded.
  public var generation: UInt64 { changes.load(ordering: .acquiring) }

  /// The tokens, by name.
  public var tokens: [AccessToken] {
    state.withLock { Array($0.byDigest.values) }.sorted { $0.name < $1.name }
  }

  /// Checks `secret` at `nowMs`, and marks a valid token used then (to the
  /// second).
  public func authenticate(_ secret: Substring, nowMs: Int64) -> Authentication {
    guard TokenSecret.isWellFormed(secret) else { return .unknown }
    let digest = TokenDigest.sha256(of: secret)
    return state.withLock { state -> Authentication in
      guard let token = state.byDigest[digest], token.digest.matches(digest) else {
        return .unknown
      }
      if token.hasExpired(atMs: nowMs) { return .expired(name: token.name) }
      Self.markUsed(digest, token: token, nowMs: nowMs, in: &state)
      return .valid(token)
    }
  }

  /// Marks the token of `digest`, found earlier by `authenticate`, used at
  /// `nowMs`; for callers that remember what it found.
  public func markUsed(_ digest: TokenDigest, nowMs: Int64) {
    state.withLock { state in
      guard let token = state.byDigest[digest] else { return }
      Self.markUsed(digest, token: token, nowMs: nowMs, in: &state)
    }
  }

  private static func markUsed(
    _ digest: TokenDigest, token: AccessToken, nowMs: Int64, in state: inout State
  ) {
    // To the second: writing the entry back on every call cost a rehash.
    guard token.lastUsedMs.map({ nowMs - $0 >= 1000 }) ?? true else { return }
    state.byDigest[digest]?.lastUsedMs = nowMs
    state.usedSinceTaken.insert(digest)
  }

  /// The tokens used since the last call, with their last-use times, for
  /// keeping those times across restarts.
  public func takeUses() -> [TokenUse] {
    state.withLock { state in
      defer { state.usedSinceTaken.removeAll() }
      return state.usedSinceTaken.compactMap { digest in
        guard let token = state.byDigest[digest], let used = token.lastUsedMs else { return nil }
        return TokenUse(name: token.name, lastUsedMs: used)
      }.sorted { $0.name < $1.name }
    }
  }

  /// Adds `token`; false when one of that name exists already.
  public func add(_ token: AccessToken) -> Bool {
    let added = state.withLock { state in
      guard !state.byDigest.values.contains(where: { $0.name == token.name }) else { return false }
      state.byDigest[token.digest] = token
      return true
    }
    if added {
      enforcing.store(true, ordering: .relaxed)
      changes.add(1, ordering: .releasing)
    }
    return added
  }

  /// Removes the token named `name` and tells its watchers; the removed
  /// token, if there was one.
  public func revoke(name: String) -> AccessToken? {
    let (removed, watchers) = state.withLock { state -> (AccessToken?, [@Sendable () -> Void]) in
      guard let found = state.byDigest.first(where: { $0.value.name == name }) else {
        return (nil, [])
      }
      state.byDigest[found.key] = nil
      state.usedSinceTaken.remove(found.key)
      changes.add(1, ordering: .releasing)
      let watchers = state.watchers.removeValue(forKey: name).map { Array($0.values) } ?? []
      return (found.value, watchers)
    }
    // Outside the lock: a watcher may call back in (to unwatch).
    for watcher in watchers { watcher() }
    return removed
  }

  /// Calls `revoked` (on any thread) if the token named `name` is revoked;
  /// nil when there is no such token any more. The id ends the watch.
  public func watch(name: String, revoked: @escaping @Sendable () -> Void) -> UInt64? {
    state.withLock { state in
      guard state.byDigest.values.contains(where: { $0.name == name }) else { return nil }
      let id = state.nextWatchID
      state.nextWatchID += 1
      state.watchers[name, default: [:]][id] = revoked
      return id
    }
  }

  public func unwatch(name: String, id: UInt64) {
    state.withLock { state in
      state.watchers[name]?[id] = nil
      if state.watchers[name]?.isEmpty == true { state.watchers[name] = nil }
    }
  }
}
