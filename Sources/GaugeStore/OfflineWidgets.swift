import GaugeDomain
import Glibc

/// Widgets read or written with no gauged running (`gauged export` and
/// `gauged import`): the data directory is locked, opened and closed as a
/// server would, so a running gauged makes these fail rather than race it.
public enum OfflineWidgets {
  /// Every widget in the directory, in id order.
  public static func read(dataDirectory path: String) throws(StoreError) -> [Widget] {
    // Opening would make an empty store where there is none.
    let database = DataDirectory.join(path, DataDirectory.databaseFileName)
    guard access(database, F_OK) == 0 else { throw StoreError("there is no \(database)") }
    let persistence = try SQLiteWidgetPersistence(directory: path)
    let widgets = persistence.loadedTable.widgets
    try persistence.close()
    return widgets
  }

  /// Stores `widgets` as they are (timestamps and stale flags included),
  /// each under a new revision after the directory's last; a widget with
  /// the id of a stored one replaces it. Returns once they are committed.
  public static func write(_ widgets: [Widget], dataDirectory path: String) throws(StoreError) {
    let persistence = try SQLiteWidgetPersistence(
      directory: path, options: StoreOptions(durability: .strict))
    var table = persistence.loadedTable
    for var widget in widgets {
      widget.revision = table.lastRevision + 1
      persistence.record(table.replicate(widget), removedAtMs: nil)
    }
    try persistence.close()
  }
}
