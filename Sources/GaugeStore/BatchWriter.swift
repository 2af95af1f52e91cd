import GaugeDomain
import GaugeWire

/// Writes batches into the file, one transaction each, with statements
/// prepared once.
///
/// @unchecked Sendable: created while the store opens, then handed to the
/// writer thread, the only one to use it (and its connection) afterwards.
final class BatchWriter: @unchecked Sendable {
  private let connection: SQLiteConnection
  private let upsertWidget: SQLiteStatement
  private let deleteWidget: SQLiteStatement
  private let upsertTombstone: SQLiteStatement
  private let deleteTombstone: SQLiteStatement
  private let raiseState: SQLiteStatement
  private let setState: SQLiteStatement
  private let newestExpired: SQLiteStatement
  private let deleteExpired: SQLiteStatement
  private let appendValues: SQLiteStatement
  private let clearValueLog: SQLiteStatement
  /// The value log row of the commit being written, kept for its capacity.
  private var logRow: [UInt8] = []

  init(connection: SQLiteConnection) throws(SQLiteError) {
    self.connection = connection
    upsertWidget = try connection.prepare(
      """
      INSERT INTO widgets (id, revision, widget) VALUES (?1, ?2, ?3)
      ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, widget = excluded.widget
      """)
    deleteWidget = try connection.prepare("DELETE FROM widgets WHERE id = ?1")
    upsertTombstone = try connection.prepare(
      "INSERT OR REPLACE INTO tombstones (id, revision, removed_at_ms) VALUES (?1, ?2, ?3)")
    deleteTombstone = try connection.prepare("DELETE FROM tombstones WHERE id = ?1")
    raiseState = try connection.prepare(
      "UPDATE state SET value = max(value, ?2) WHERE key = ?1")
    setState = try connection.prepare("UPDATE state SET value = ?2 WHERE key = ?1")
    newestExpired = try connection.prepare(
      "SELECT max(revision) FROM tombstones WHERE removed_at_ms < ?1")
    deleteExpired = try connection.prepare("DELETE FROM tombstones WHERE removed_at_ms < ?1")
    appendValues = try connection.prepare("INSERT INTO value_log (changes) VALUES (?1)")
    clearValueLog = try connection.prepare("DELETE FROM value_log")
  }

  /// Writes the rows and the value changes (one `value_log` row), raises
  /// the stored revision counter to `lastRevision` and forgets tombstones
  /// removed before `cutoffMs`, all or nothing.
  func commit(
    _ writes: [String: PendingBatch.Write], loggedValues: [ValueChange], lastRevision: UInt64,
    expiringRemovalsBefore cutoffMs: Int64
  ) throws(SQLiteError) {
    try connection.transaction { () throws(SQLiteError) in
      if !loggedValues.isEmpty {
        ValueLog.encode(loggedValues, into: &logRow)
        try appendValues.run(blob: logRow)
      }
      for (id, write) in writes {
        switch write {
        case .upsert(let widget, let clearsTombstone):
          try upsertWidget.run([
            .text(id), .integer(Int64(bitPattern: widget.revision)),
            .blob(WidgetWire.encodeWidget(widget)),
          ])
          if clearsTombstone { try deleteTombstone.run([.text(id)]) }
        case .remove(let tombstone):
          try deleteWidget.run([.text(id)])
          try upsertTombstone.run([
            .text(id), .integer(Int64(bitPattern: tombstone.revision)),
            .integer(tombstone.removedAtMs),
          ])
        }
      }
      try raiseState.run([.text("last_revision"), .integer(Int64(bitPattern: lastRevision))])
      try expireTombstones(removedBefore: cutoffMs)
    }
  }

  /// Folds the value log into the widget rows: writes `widgets`, the
  /// current state of every widget the log touched, and empties the log,
  /// all or nothing.
  func compact(_ widgets: some Sequence<Widget>) throws(SQLiteError) {
    try connection.transaction { () throws(SQLiteError) in
      for widget in widgets {
        try upsertWidget.run([
          .text(widget.id), .integer(Int64(bitPattern: widget.revision)),
          .blob(WidgetWire.encodeWidget(widget)),
        ])
      }
      try clearValueLog.run()
    }
  }

  /// Marks the file as open (`clean == false`) or cleanly closed, and
  /// stores the revision counter and horizon the open store starts from.
  func markShutdown(clean: Bool, lastRevision: UInt64? = nil, horizon: UInt64? = nil)
    throws(SQLiteError)
  {
    try connection.transaction { () throws(SQLiteError) in
      try setState.run([.text("clean_shutdown"), .integer(clean ? 1 : 0)])
      if let lastRevision {
        try raiseState.run([.text("last_revision"), .integer(Int64(bitPattern: lastRevision))])
      }
      if let horizon {
        try raiseState.run([.text("horizon"), .integer(Int64(bitPattern: horizon))])
      }
    }
  }

  /// The disk's copy of `WidgetTable.expireTombstones`: the same cutoff
  /// drops the same removals, so a restart serves the same horizon.
  private func expireTombstones(removedBefore cutoffMs: Int64) throws(SQLiteError) {
    try newestExpired.bind([.integer(cutoffMs)])
    defer { newestExpired.reset() }
    guard try newestExpired.step(), !newestExpired.isNull(0) else { return }
    let newest = newestExpired.int64(0)
    try deleteExpired.run([.integer(cutoffMs)])
    try raiseState.run([.text("horizon"), .integer(newest)])
  }
}
