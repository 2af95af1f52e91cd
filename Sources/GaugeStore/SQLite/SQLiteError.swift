import CSQLite

/// A failed SQLite call: its (extended) result code and SQLite's message.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: Int32
  public var message: String

  public init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  /// The primary result code, without the extended bits (`SQLITE_FULL`, ...).
  public var primaryCode: Int32 { code & 0xff }

  /// For example `database or disk is full (SQLite code 13)`.
  public var description: String { "\(message) (SQLite code \(code))" }

  /// The message the connection holds for its last failed call.
  static func last(_ database: OpaquePointer?, code: Int32) -> SQLiteError {
    let message = database.map { String(cString: sqlite3_errmsg($0)) }
    return SQLiteError(code: code, message: message ?? String(cString: sqlite3_errstr(code)))
  }
}
