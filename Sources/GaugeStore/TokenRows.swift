import GaugeDomain

/// The `tokens` table: one row per bearer token, holding its digest and
/// never its secret.
enum TokenRows {
  static func load(from connection: SQLiteConnection) throws(StoreError) -> [AccessToken] {
    var tokens: [AccessToken] = []
    do {
      let rows = try connection.prepare(
        "SELECT name, scope, prefix, sha256, created_ms, last_used_ms, expires_ms,"
          + " write_rate_per_s, write_burst FROM tokens ORDER BY name")
      while try rows.step() {
        let name = rows.text(0)
        guard let scope = Scope(name: rows.text(1)),
          let digest = rows.withBlob(3, { TokenDigest(bytes: Array($0)) })
        else {
          throw StoreError("\(connection.path): token \"\(name)\" has a damaged row")
        }
        tokens.append(
          AccessToken(
            name: name, scope: scope, reach: WidgetReach(prefix: rows.text(2)), digest: digest,
            createdMs: rows.int64(4), lastUsedMs: rows.isNull(5) ? nil : rows.int64(5),
            expiresMs: rows.isNull(6) ? nil : rows.int64(6),
            writeRate: rows.isNull(7) || rows.isNull(8)
              ? nil
              : TokenBucket.Rate(perSecond: Double(rows.int64(7)), burst: Double(rows.int64(8)))))
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError("cannot read the tokens of \(connection.path): \(error)")
    }
    return tokens
  }

  /// Adds `token`; refused when its name is taken.
  static func insert(_ token: AccessToken, into connection: SQLiteConnection) throws(StoreError) {
    do {
      let existing = try connection.prepare("SELECT 1 FROM tokens WHERE name = ?")
      try existing.bind([.text(token.name)])
      if try existing.step() {
        throw StoreError("a token named \"\(token.name)\" exists already")
      }
      let insert = try connection.prepare(
        "INSERT INTO tokens (name, scope, prefix, sha256, created_ms, last_used_ms, expires_ms,"
          + " write_rate_per_s, write_burst) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
      try insert.run([
        .text(token.name), .text(token.scope.description), .text(token.reach.prefix),
        .blob(token.digest.bytes), .integer(token.createdMs),
        token.lastUsedMs.map { .integer($0) } ?? .null,
        token.expiresMs.map { .integer($0) } ?? .null,
        token.writeRate.map { .integer(Int64($0.perSecond)) } ?? .null,
        token.writeRate.map { .integer(Int64($0.burst)) } ?? .null,
      ])
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError("cannot store token \"\(token.name)\" in \(connection.path): \(error)")
    }
  }
}
