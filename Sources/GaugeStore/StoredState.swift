import GaugeDomain
import GaugeWire

/// Everything the file holds, read back at start.
struct StoredState {
  var widgets: [Widget] = []
  var tombstones: [Tombstone] = []
  var lastRevision: UInt64 = 0
  var horizon: UInt64 = 0
  /// False when the last gauged to open the file did not close it: it may
  /// have handed out revisions that never reached the file.
  var cleanShutdown = true
  /// Widgets whose rows the value log changed: `widgets` holds them with
  /// the log applied, and they are due for compaction.
  var replayedIDs: Set<String> = []
  /// Rows the value log held: compaction is due when there were any.
  var valueLogRows = 0

  static func load(from connection: SQLiteConnection) throws(StoreError) -> StoredState {
    do {
      return try read(connection)
    } catch let error as SQLiteError {
      throw StoreError("cannot load \(connection.path): \(error)")
    } catch let error as WireError {
      throw StoreError("cannot load \(connection.path): \(error.message)")
    } catch {
      throw StoreError("cannot load \(connection.path): \(error)")
    }
  }

  private static func read(_ connection: SQLiteConnection) throws -> StoredState {
    var state = StoredState()
    let widgets = try connection.prepare("SELECT widget FROM widgets")
    while try widgets.step() {
      state.widgets.append(try widgets.withBlob(0, WidgetWire.decodeWidget))
    }
    try replayValueLog(connection, into: &state)
    let tombstones = try connection.prepare(
      "SELECT id, revision, removed_at_ms FROM tombstones ORDER BY revision")
    while try tombstones.step() {
      state.tombstones.append(
        Tombstone(
          id: tombstones.text(0), revision: UInt64(bitPattern: tombstones.int64(1)),
          removedAtMs: tombstones.int64(2)))
    }
    let values = try connection.prepare("SELECT key, value FROM state")
    while try values.step() {
      let value = values.int64(1)
      switch values.text(0) {
      case "last_revision": state.lastRevision = UInt64(bitPattern: value)
      case "horizon": state.horizon = UInt64(bitPattern: value)
      case "clean_shutdown": state.cleanShutdown = value != 0
      default: continue
      }
    }
    return state
  }

  /// Lays the value log over the widget rows in commit order. A change
  /// older than its row (a later put, or a compaction that already
  /// included it) is skipped, as is one for a widget since removed.
  private static func replayValueLog(_ connection: SQLiteConnection, into state: inout StoredState)
    throws
  {
    let log = try connection.prepare("SELECT changes FROM value_log ORDER BY seq")
    var positions: [String: Int] = [:]
    while try log.step() {
      state.valueLogRows += 1
      if positions.isEmpty {
        for (position, widget) in state.widgets.enumerated() { positions[widget.id] = position }
      }
      let changes = try log.withBlob(0) { bytes throws(ValueLog.Malformed) in
        try ValueLog.decode(bytes)
      }
      for change in changes {
        guard let position = positions[change.id],
          state.widgets[position].revision < change.revision
        else { continue }
        state.widgets[position] = change.applied(to: state.widgets[position])
        state.replayedIDs.insert(change.id)
      }
    }
  }

  /// The table gauged serves from: tombstones older than the retention are
  /// dropped (raising the horizon past them).
  func table(expiringRemovalsBefore cutoffMs: Int64) -> WidgetTable {
    var table = WidgetTable(
      widgets: widgets, lastRevision: lastRevision, tombstones: tombstones, horizon: horizon)
    table.expireTombstones(removedBefore: cutoffMs)
    return table
  }
}
