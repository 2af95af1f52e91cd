import CSQLite

/// The one owner of a `sqlite3*` handle.
///
/// @unchecked Sendable: the handle is opened with `SQLITE_OPEN_NOMUTEX` and
/// used by one thread at a time, handed over with a happens-before edge: the
/// thread that opens and loads the store, then the store's writer thread
/// (started after loading), then the thread that closes the store after
/// joining the writer.
final class SQLiteConnection: @unchecked Sendable {
  private var handle: OpaquePointer?
  let path: String

  /// Opens `path` read-write, creating it when `create` is set. `path` is
  /// a file name, never a URI: Debian's SQLite reads names that begin with
  /// `file:` as URIs, so `--data-dir file:x` opened `x/gauged.sqlite3`, a
  /// database another gauged may own, past the lock on `file:x`.
  init(path: String, create: Bool = true) throws(SQLiteError) {
    var database: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
    let fileName = path.hasPrefix("file:") ? "./" + path : path
    let code = sqlite3_open_v2(fileName, &database, flags, nil)
    guard code == SQLITE_OK else {
      let error = SQLiteError.last(database, code: code)
      sqlite3_close_v2(database)
      throw error
    }
    sqlite3_extended_result_codes(database, 1)
    self.handle = database
    self.path = path
  }

  deinit {
    close()
  }

  /// Closes the handle; statements still alive keep it open until they are
  /// finalized (`sqlite3_close_v2`). Closing the last connection checkpoints
  /// the WAL into the database file.
  func close() {
    guard let handle else { return }
    sqlite3_close_v2(handle)
    self.handle = nil
  }

  var database: OpaquePointer {
    guard let handle else { preconditionFailure("\(path) is closed") }
    return handle
  }

  /// Runs statements that return no rows the caller needs.
  func execute(_ sql: String) throws(SQLiteError) {
    let code = sqlite3_exec(database, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw SQLiteError.last(database, code: code) }
  }

  func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    try SQLiteStatement(database: database, sql: sql)
  }

  /// False between `BEGIN` and the end of the transaction.
  var isInTransaction: Bool { sqlite3_get_autocommit(database) == 0 }

  /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`; any error rolls the
  /// transaction back (if SQLite has not already) and is rethrown.
  func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError)
    -> Result
  {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      // After SQLITE_FULL or an I/O error SQLite may have rolled back on
      // its own; a second ROLLBACK would fail with "no transaction".
      if isInTransaction { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// The single text value a `PRAGMA` statement answers with.
  func pragma(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try prepare(sql)
    guard try statement.step() else { return nil }
    return statement.text(0)
  }
}
