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
