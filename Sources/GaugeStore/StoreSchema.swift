/// The database layout, created and migrated by gauged itself. Version N is
/// reached by running `migrations[0..<N]` in order, each in its own
/// transaction together with the version bump, so a crash mid-migration
/// leaves the file at the previous version.
enum StoreSchema {
  /// `state` holds the counters that are not rows: `last_revision` (the
  /// highest revision handed out that reached the file), `horizon` (resumes
  /// from below it get a reset) and `clean_shutdown` (0 while a gauged has
  /// the file open; 1 after it flushed everything and stopped).
  static let migrations: [[String]] = [
    [
      """
      CREATE TABLE widgets (
        id TEXT PRIMARY KEY NOT NULL,
        revision INTEGER NOT NULL,
        widget BLOB NOT NULL -- gauge.v1.Widget, protobuf
      ) WITHOUT ROWID
      """,
      """
      CREATE TABLE tombstones (
        id TEXT PRIMARY KEY NOT NULL,
        revision INTEGER NOT NULL,
        removed_at_ms INTEGER NOT NULL
      ) WITHOUT ROWID
      """,
      "CREATE INDEX tombstones_by_removal_time ON tombstones (removed_at_ms)",
      """
      CREATE TABLE state (
        key TEXT PRIMARY KEY NOT NULL,
        value INTEGER NOT NULL
      ) WITHOUT ROWID
      """,
      """
      INSERT INTO state (key, value)
      VALUES ('last_revision', 0), ('horizon', 0), ('clean_shutdown', 1)
      """,
    ],
    // Value-only changes, one packed row per commit (see `ValueLog`),
    // folded into `widgets` by compaction and replayed at start.
    ["CREATE TABLE value_log (seq INTEGER PRIMARY KEY, changes BLOB NOT NULL)"],
    // Bearer tokens (see `TokenRows`): never a secret, only its SHA-256.
    [
      """
      CREATE TABLE tokens (
        name TEXT PRIMARY KEY NOT NULL,
        scope TEXT NOT NULL,
        prefix TEXT NOT NULL, -- empty: every widget
        sha256 BLOB NOT NULL UNIQUE,
        created_ms INTEGER NOT NULL,
        last_used_ms INTEGER,
        expires_ms INTEGER
      ) WITHOUT ROWID
      """
    ],
    // A token's own write rate limit (NULL: the server's).
    [
      "ALTER TABLE tokens ADD COLUMN write_rate_per_s INTEGER",
      "ALTER TABLE tokens ADD COLUMN write_burst INTEGER",
    ],
  ]

  static var currentVersion: Int { migrations.count }

  /// Brings the file to `currentVersion`; returns the version it had (0 for
  /// a new or empty file).
  @discardableResult
  static func migrate(_ connection: SQLiteConnection) throws(StoreError) -> Int {
    let found = try version(of: connection)
    guard found <= currentVersion else {
      throw StoreError(
        "\(connection.path) has schema version \(found); this gauged knows versions up to "
          + "\(currentVersion)")
    }
    for next in found..<currentVersion {
      do {
        try connection.transaction { () throws(SQLiteError) in
          if next == 0 {
            try connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            try connection.execute("INSERT INTO schema_version (version) VALUES (0)")
          }
          for statement in migrations[next] { try connection.execute(statement) }
          try connection.execute("UPDATE schema_version SET version = \(next + 1)")
        }
      } catch {
        throw StoreError(
          "cannot migrate \(connection.path) to schema version \(next + 1): \(error)")
      }
    }
    return found
  }

  /// 0 for a file with no tables; refuses a database that has tables but
  /// no version, which is some other program's.
  private static func version(of connection: SQLiteConnection) throws(StoreError) -> Int {
    let names: [String]
    let stored: Int64?
    do {
      let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      var found: [String] = []
      while try tables.step() { found.append(tables.text(0)) }
      names = found
      if names.contains("schema_version") {
        let version = try connection.prepare("SELECT version FROM schema_version")
        stored = try version.step() ? version.int64(0) : nil
      } else {
        stored = nil
      }
    } catch {
      throw StoreError("cannot read \(connection.path): \(error)")
    }
    if let stored { return Int(stored) }
    guard names.isEmpty else {
      throw StoreError("\(connection.path) is an SQLite file but not a gauged data file")
    }
    return 0
  }
}
