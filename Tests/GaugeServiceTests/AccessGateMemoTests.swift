import GRPCTransport
import GaugeAuth
import GaugeDomain
import Testing

@testable import GaugeService

/// The gate with a connection's credential memo: what it concluded about
/// a secret holds until a token is added or revoked or the token expires,
/// and a different secret on the same connection is checked afresh.
@Suite struct AccessGateMemoTests {
  static let secret = "gd_" + String(repeating: "a", count: 43)
  static let other = "gd_" + String(repeating: "b", count: 43)

  static func token(
    _ name: String, _ secret: String, scope: Scope = .write, expiresMs: Int64? = nil
  ) -> AccessToken {
    AccessToken(
      name: name, scope: scope, reach: .prefix("team-"), digest: .sha256(of: Substring(secret)),
      createdMs: 1, expiresMs: expiresMs)
  }

  static func check(
    _ gate: AccessGate, _ secret: String, _ scope: Scope = .write, memo: CredentialMemo,
    nowMs: Int64 = 10_000
  ) -> AccessDecision {
    gate.check(
      .scope(scope), authorization: "Bearer \(secret)", cookie: nil, memo: memo, nowMs: nowMs)
  }

  static func isGranted(_ decision: AccessDecision, to name: String) -> Bool {
    guard case .granted(let grant) = decision else { return false }
    return grant.tokenName == name && grant.reach == .prefix("team-")
  }

  @Test func aRememberedTokenIsGrantedAndItsScopeStillDecides() {
    let gate = AccessGate(registry: TokenRegistry(tokens: [Self.token("ci", Self.secret)]))
    let memo = CredentialMemo()
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo), to: "ci"))
    #expect(memo.conclusion(about: "Bearer \(Self.secret)") != nil)
    #expect(Self.isGranted(Self.check(gate, Self.secret, .read, memo: memo), to: "ci"))
    guard case .refused(.forbidden(let message)) = Self.check(gate, Self.secret, .admin, memo: memo)
    else {
      Issue.record("a write token was let do admin work")
      return
    }
    #expect(message.contains("has scope write"))
  }

  @Test func revokingATokenEndsWhatTheMemoKnew() {
    let registry = TokenRegistry(tokens: [Self.token("ci", Self.secret)])
    let gate = AccessGate(registry: registry)
    let memo = CredentialMemo()
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo), to: "ci"))
    _ = registry.revoke(name: "ci")
    #expect(
      Self.check(gate, Self.secret, memo: memo)
        == .refused(.unauthenticated("the token is not known to this server")))
    // Made again with the same secret: known again.
    #expect(registry.add(Self.token("ci", Self.secret)))
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo), to: "ci"))
  }

  @Test func addingAnyTokenMakesTheMemoCheckAgain() {
    let registry = TokenRegistry(tokens: [Self.token("ci", Self.secret)])
    let gate = AccessGate(registry: registry)
    let memo = CredentialMemo()
    _ = Self.check(gate, Self.secret, memo: memo)
    let before = registry.generation
    #expect(registry.add(Self.token("other", Self.other)))
    #expect(registry.generation != before)
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo), to: "ci"))
  }

  @Test func anExpiredTokenIsRefusedThoughRemembered() {
    let gate = AccessGate(
      registry: TokenRegistry(tokens: [Self.token("old", Self.secret, expiresMs: 20_000)]))
    let memo = CredentialMemo()
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo, nowMs: 19_999), to: "old"))
    #expect(
      Self.check(gate, Self.secret, memo: memo, nowMs: 20_000)
        == .refused(.unauthenticated("the token \"old\" has expired")))
  }

  @Test func anotherSecretOnTheSameConnectionIsCheckedAfresh() {
    let gate = AccessGate(registry: TokenRegistry(tokens: [Self.token("ci", Self.secret)]))
    let memo = CredentialMemo()
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo), to: "ci"))
    #expect(
      Self.check(gate, Self.other, memo: memo)
        == .refused(.unauthenticated("the token is not known to this server")))
    #expect(Self.isGranted(Self.check(gate, Self.secret, memo: memo), to: "ci"))
  }

  @Test func usesThroughTheMemoAreMarkedToTheSecond() {
    let registry = TokenRegistry(tokens: [Self.token("ci", Self.secret)])
    let gate = AccessGate(registry: registry)
    let memo = CredentialMemo()
    _ = Self.check(gate, Self.secret, memo: memo, nowMs: 10_000)
    #expect(registry.takeUses() == [TokenUse(name: "ci", lastUsedMs: 10_000)])
    _ = Self.check(gate, Self.secret, memo: memo, nowMs: 10_500)
    #expect(registry.takeUses() == [])
    _ = Self.check(gate, Self.secret, memo: memo, nowMs: 11_200)
    #expect(registry.takeUses() == [TokenUse(name: "ci", lastUsedMs: 11_200)])
    #expect(registry.tokens.first?.lastUsedMs == 11_200)
  }
}
