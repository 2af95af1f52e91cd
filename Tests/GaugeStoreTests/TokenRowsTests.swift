import GaugeDomain
import Testing

@testable import GaugeStore

@Suite struct TokenRowsTests {
  static let digest = TokenDigest(bytes: Array(0..<32))!

  @Test func anOfflineTokenIsLoadedByTheNextServerWithoutItsSecret() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let token = AccessToken(
      name: "ops", scope: .admin, reach: .prefix("team-"), digest: Self.digest, createdMs: 5,
      expiresMs: 99)
    try OfflineTokens.create(token, dataDirectory: directory.path)
    #expect(throws: StoreError.self) {
      try OfflineTokens.create(token, dataDirectory: directory.path)
    }
    let persistence = try SQLiteWidgetPersistence(directory: directory.path)
    #expect(persistence.loadedTokens == [token])
    try persistence.close()
    #expect(
      try rows("SELECT name, scope, prefix, hex(sha256) FROM tokens", in: directory)
        == [["ops", "admin", "team-", Self.digest.hex.uppercased()]])
  }

  @Test func lastUsesAreKeptForTheNextServer() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let persistence = try SQLiteWidgetPersistence(directory: directory.path)
    let tokens = try SQLiteTokenPersistence(store: persistence)
    let token = AccessToken(name: "ops", scope: .read, digest: Self.digest, createdMs: 5)
    try tokens.insert(token)
    // A name no longer stored (revoked meanwhile) is passed over.
    try tokens.recordUses([
      TokenUse(name: "ops", lastUsedMs: 7_000), TokenUse(name: "gone", lastUsedMs: 8_000),
    ])
    tokens.close()
    try persistence.close()
    let reopened = try SQLiteWidgetPersistence(directory: directory.path)
    defer { try? reopened.close() }
    #expect(reopened.loadedTokens.map(\.lastUsedMs) == [7_000])
  }

  @Test func aRunningServerKeepsOfflineChangesOut() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let persistence = try SQLiteWidgetPersistence(directory: directory.path)
    defer { try? persistence.close() }
    let token = AccessToken(name: "ops", scope: .read, digest: Self.digest, createdMs: 5)
    #expect(throws: StoreError.self) {
      try OfflineTokens.create(token, dataDirectory: directory.path)
    }
  }
}
