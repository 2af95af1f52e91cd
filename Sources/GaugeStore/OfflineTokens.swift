import GaugeDomain

/// Token changes made with no gauged running (`gauged token create`): the
/// data directory is locked, migrated and written like a server would,
/// so a running gauged makes this fail rather than miss the change.
public enum OfflineTokens {
  public static func create(_ token: AccessToken, dataDirectory path: String) throws(StoreError) {
    let directory = try DataDirectory(path: path)
    defer { directory.release() }
    let connection: SQLiteConnection
    do {
      connection = try SQLiteConnection(path: directory.databasePath)
      _ = try connection.pragma("PRAGMA journal_mode = WAL")
      try connection.execute("PRAGMA synchronous = FULL")
    } catch {
      throw StoreError("cannot open \(directory.databasePath): \(error)")
    }
    defer { connection.close() }
    try StoreSchema.migrate(connection)
    try TokenRows.insert(token, into: connection)
  }
}
