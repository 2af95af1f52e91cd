import GaugeDomain
import Synchronization

/// The `tokens` table of a running server's data file, on a connection of
/// its own: token changes are rare and small, and the widget writer's
/// connection belongs to its thread. Both connections wait for each other
/// (`busy_timeout`) instead of failing while the other commits.
public final class SQLiteTokenPersistence: TokenPersistence {
  private let connection: Mutex<SQLiteConnection?>
  private let path: String

  /// Opens a second connection to the store's file; `store` must stay open
  /// (it holds the data directory's lock) for as long as this is used.
  public init(store: SQLiteWidgetPersistence) throws(StoreError) {
    path = store.databasePath
    do {
      let opened = try SQLiteConnection(path: path, create: false)
      try opened.execute("PRAGMA busy_timeout = \(SQLiteWidgetPersistence.busyTimeoutMs)")
      try opened.execute("PRAGMA synchronous = FULL")
      connection = Mutex(opened)
    } catch {
      throw StoreError("cannot open \(path) for tokens: \(error)")
    }
  }

  public func insert(_ token: AccessToken) throws(TokenPersistenceError) {
    try withConnection { connection throws(StoreError) in
      try TokenRows.insert(token, into: connection)
    }
  }

  public func remove(name: String) throws(TokenPersistenceError) {
    try withConnection { connection throws(StoreError) in
      do {
        try connection.prepare("DELETE FROM tokens WHERE name = ?").run([.text(name)])
      } catch {
        throw StoreError("cannot remove token \"\(name)\" from \(connection.path): \(error)")
      }
    }
  }

  public func recordUses(_ uses: [TokenUse]) throws(TokenPersistenceError) {
    guard !uses.isEmpty else { return }
    try withConnection { connection throws(StoreError) in
      do {
        try connection.execute("BEGIN")
        let update = try connection.prepare("UPDATE tokens SET last_used_ms = ? WHERE name = ?")
        for use in uses {
          try update.run([.integer(use.lastUsedMs), .text(use.name)])
        }
        try connection.execute("COMMIT")
      } catch {
        try? connection.execute("ROLLBACK")
        throw StoreError("cannot record token uses in \(connection.path): \(error)")
      }
    }
  }

  /// Closes the connection; later changes fail.
  public func close() {
    connection.withLock {
      $0?.close()
      $0 = nil
    }
  }

  private func withConnection(
    _ body: (SQLiteConnection) throws(StoreError) -> Void
  ) throws(TokenPersistenceError) {
    let failure = connection.withLock { connection -> StoreError? in
      guard let connection else { return StoreError("\(path) is closed") }
      do throws(StoreError) {
        try body(connection)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw TokenPersistenceError(failure.message) }
  }
}
