import GaugeDomain
import Testing

@testable import GaugeAuth

@Suite struct TokenRegistryTests {
  static func token(_ name: String, secret: Substring, expiresMs: Int64? = nil) -> AccessToken {
    AccessToken(
      name: name, scope: .write, reach: .prefix("team-"), digest: .sha256(of: secret),
      createdMs: 1, expiresMs: expiresMs)
  }

  static let secret: Substring = "gd_" + String(repeating: "a", count: 43)
  static let other: Substring = "gd_" + String(repeating: "b", count: 43)

  @Test func findsATokenByItsSecretAndMarksItUsed() {
    let registry = TokenRegistry(tokens: [Self.token("ci", secret: Self.secret)])
    guard case .valid(let found) = registry.authenticate(Self.secret, nowMs: 500) else {
      Issue.record("the token was not found")
      return
    }
    #expect(found.name == "ci")
    #expect(found.reach == .prefix("team-"))
    #expect(registry.tokens.first?.lastUsedMs == 500)
    #expect(registry.authenticate(Self.other, nowMs: 500) == .unknown)
    #expect(registry.authenticate("not a secret", nowMs: 500) == .unknown)
  }

  @Test func anExpiredTokenIsNamed() {
    let registry = TokenRegistry(tokens: [Self.token("old", secret: Self.secret, expiresMs: 100)])
    #expect(registry.authenticate(Self.secret, nowMs: 99) != .expired(name: "old"))
    #expect(registry.authenticate(Self.secret, nowMs: 100) == .expired(name: "old"))
  }

  @Test func revokedTokensStopWorkingAndNamesAreUnique() {
    let registry = TokenRegistry(tokens: [Self.token("ci", secret: Self.secret)])
    #expect(!registry.add(Self.token("ci", secret: Self.other)))
    #expect(registry.revoke(name: "ci")?.name == "ci")
    #expect(registry.authenticate(Self.secret, nowMs: 1) == .unknown)
    #expect(registry.revoke(name: "ci") == nil)
  }

  @Test func bearerCredentialsAreReadFromHeaderAndCookie() {
    #expect(BearerCredential.fromAuthorization(nil) == .none)
    #expect(BearerCredential.fromAuthorization("Bearer gd_x") == .secret("gd_x"))
    #expect(BearerCredential.fromAuthorization("bearer  gd_x ") == .secret("gd_x"))
    #expect(BearerCredential.fromAuthorization("Basic dXNlcg==") == .malformed)
    #expect(BearerCredential.fromAuthorization("Bearer ") == .malformed)
    #expect(BearerCredential.fromCookie("a=b; gauged_token=gd_y") == .secret("gd_y"))
    #expect(BearerCredential.fromCookie("a=b") == .none)
  }
}
