import CSQLite

/// The one owner of a prepared `sqlite3_stmt*`, finalized on deinit. Used on
/// the thread of the connection that prepared it.
final class SQLiteStatement {
  private let handle: OpaquePointer
  private let database: OpaquePointer

  init(database: OpaquePointer, sql: String) throws(SQLiteError) {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw SQLiteError.last(database, code: code)
    }
    self.handle = statement
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Resets the statement and binds `values` to `?1`, `?2`, ...
  func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      try bindOne(Int32(offset + 1), value)
    }
  }

  /// Advances to the next row: true when there is one, false when done.
  func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      // The error code of a failed step is the statement's; reset returns it too.
      sqlite3_reset(handle)
      throw SQLiteError.last(database, code: code)
    }
  }

  /// Binds and steps to the end: for statements that return no rows.
  func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    try bind(values)
    while try step() {}
    reset()
  }

  /// `run` with one blob, bound without a copy: SQLite reads `bytes` only
  /// while the statement steps, which happens before this returns. For
  /// large blobs written often (the value log).
  func run(blob bytes: [UInt8]) throws(SQLiteError) {
    try bind([])
    defer {
      reset()
      // The binding must not outlive the buffer it points into.
      sqlite3_clear_bindings(handle)
    }
    let outcome = bytes.withUnsafeBytes { buffer in
      Result { () throws(SQLiteError) in
        let code = bindBlob(1, buffer, destructor: nil)
        guard code == SQLITE_OK else { throw SQLiteError.last(database, code: code) }
        while try step() {}
      }
    }
    try outcome.get()
  }

  /// Ends the current run, releasing what it holds (a read snapshot).
  func reset() {
    sqlite3_reset(handle)
  }

  var columnCount: Int32 { sqlite3_column_count(handle) }

  func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  func int64(_ column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  func text(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    return String(cString: text)
  }

  /// The column's bytes, valid until the next `step`, `bind` or `run`.
  func withBlob<Result, Failure: Error>(
    _ column: Int32, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let start = sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return try body(UnsafeRawBufferPointer(start: start, count: count))
  }

  private func bindOne(_ index: Int32, _ value: SQLiteValue) throws(SQLiteError) {
    let code: Int32
    switch value {
    case .integer(let integer):
      code = sqlite3_bind_int64(handle, index, integer)
    case .text(let text):
      code = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { bindBlob(index, $0, destructor: csqlite_transient()) }
    case .null:
      code = sqlite3_bind_null(handle, index)
    }
    guard code == SQLITE_OK else { throw SQLiteError.last(database, code: code) }
  }

  /// `destructor`: SQLITE_TRANSIENT to have SQLite copy the bytes, nil
  /// (static) when they outlive the statement's use of them.
  private func bindBlob(
    _ index: Int32, _ buffer: UnsafeRawBufferPointer, destructor: sqlite3_destructor_type?
  ) -> Int32 {
    // A zero-length blob still needs a non-NULL pointer to be a blob.
    sqlite3_bind_blob(
      handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
      destructor)
  }
}
