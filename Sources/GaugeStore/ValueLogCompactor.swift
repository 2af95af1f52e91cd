import GaugeDomain

/// The writer thread's view of what the file holds, kept so the value log
/// can be folded into the widget rows: the log is cheap to append (one row
/// per commit) but grows, and compaction rewrites each widget it touched
/// once, however many values it logged.
///
/// Compaction runs when the log holds `maxLoggedValues` changes or is
/// `intervalNs` old, and when the store closes; a failed compaction leaves
/// the log in place (it is still replayed at start) and is retried later.
struct ValueLogCompactor {
  /// Every widget as its last row write left it (the log not applied).
  private var stored: [String: Widget]
  /// The latest logged value per widget since the last compaction, kept by
  /// table slot (`ValueChange.tableSlot`): a producer's values land in an
  /// array without hashing their ids. A value without a slot, or whose slot
  /// another widget took since, waits in `loggedByID`.
  private var loggedBySlot: [ValueChange?] = []
  private var loggedByID: [String: ValueChange] = [:]
  /// Widgets the log changed before this process opened the file, as
  /// `stored` holds them already.
  private var replayed: Set<String> = []
  private var loggedValues = 0
  private var logStartedNs: UInt64?
  let maxLoggedValues: Int
  let intervalNs: UInt64

  /// `maxLoggedValues`: at most about 36 MB of log for a start to replay.
  /// Each compaction rewrites every widget the log touched, so a producer
  /// at a million values a second should not trigger one more than once
  /// a second.
  init(
    widgets: [Widget], maxLoggedValues: Int = 1_048_576, intervalNs: UInt64 = 1_000_000_000
  ) {
    stored = Dictionary(minimumCapacity: widgets.count)
    for widget in widgets { stored[widget.id] = widget }
    self.maxLoggedValues = maxLoggedValues
    self.intervalNs = intervalNs
  }

  var hasLog: Bool { logStartedNs != nil }

  /// Notes a successful commit of these rows and logged values.
  mutating func committed(
    _ writes: [String: PendingBatch.Write], loggedValues changes: [ValueChange], now: UInt64
  ) {
    for (id, write) in writes {
      switch write {
      case .upsert(let widget, _): stored[id] = widget
      case .remove: stored[id] = nil
      }
    }
    guard !changes.isEmpty else { return }
    for change in changes {
      let slot = Int(change.tableSlot)
      guard slot >= 0 else {
        loggedByID.keepLatest(change)
        continue
      }
      if slot >= loggedBySlot.count {
        loggedBySlot.append(
          contentsOf: repeatElement(
            nil, count: max(slot + 1, 2 * loggedBySlot.count) - loggedBySlot.count))
      }
      if let earlier = loggedBySlot[slot] {
        if earlier.id == change.id {
          if earlier.revision < change.revision { loggedBySlot[slot] = change }
          continue
        }
        // The slot went to another widget: the earlier one's value waits apart.
        loggedByID.keepLatest(earlier)
      }
      loggedBySlot[slot] = change
    }
    loggedValues += changes.count
    if logStartedNs == nil { logStartedNs = now }
  }

  /// Marks widgets whose rows the log already changed when the store
  /// opened (`StoredState.replayedIDs`), so the first compaction writes them.
  mutating func replayed(_ ids: Set<String>, now: UInt64) {
    replayed.formUnion(ids)
    logStartedNs = now
  }

  func isDue(now: UInt64) -> Bool {
    guard let started = logStartedNs else { return false }
    return loggedValues >= maxLoggedValues || now &- started >= intervalNs
  }

  /// Folds the log into the widget rows. A logged value older than its
  /// widget's row (a later put, or a removal) is dropped.
  mutating func compact(with writer: BatchWriter) throws(SQLiteError) {
    guard hasLog else { return }
    var logged = loggedByID
    for case let change? in loggedBySlot { logged.keepLatest(change) }
    var widgets: [Widget] = []
    widgets.reserveCapacity(logged.count + replayed.count)
    for id in replayed where logged[id] == nil {
      if let widget = stored[id] { widgets.append(widget) }
    }
    for (id, change) in logged {
      guard let widget = stored[id], widget.revision < change.revision else { continue }
      widgets.append(change.applied(to: widget))
    }
    try writer.compact(widgets)
    for widget in widgets { stored[widget.id] = widget }
    loggedByID.removeAll(keepingCapacity: true)
    for slot in loggedBySlot.indices { loggedBySlot[slot] = nil }
    replayed.removeAll()
    loggedValues = 0
    logStartedNs = nil
  }
}
