import GaugeDomain
import GaugeNATS
import Synchronization

/// This instance's copy of the bucket: a `WidgetTable` changed only by the
/// bucket's watch, in the bucket's order and with its revisions. Each
/// change reaches `observer` inside the critical section, as the memory
/// store's do, so a subscriber attaching to the hub and then reading a
/// snapshot sees every change once.
final class WidgetReplica: Sendable {
  private struct State {
    var table: WidgetTable
    /// Whether the watch has delivered everything the bucket held when it
    /// started.
    var loaded = false
  }

  private let state: Mutex<State>
  let applied = AppliedRevision()
  private let clock: @Sendable () -> Int64
  private let tombstoneRetentionMs: Int64
  private let observer: (@Sendable (WidgetChange) -> Void)?
  private let onLoaded: @Sendable () -> Void

  init(
    clock: @escaping @Sendable () -> Int64, tombstoneRetentionMs: Int64,
    observer: (@Sendable (WidgetChange) -> Void)?, onLoaded: @escaping @Sendable () -> Void
  ) {
    self.state = Mutex(State(table: WidgetTable()))
    self.clock = clock
    self.tombstoneRetentionMs = tombstoneRetentionMs
    self.observer = observer
    self.onLoaded = onLoaded
  }

  /// One event of the watch, on its delivery thread.
  func receive(_ event: KVWatchEvent) {
    switch event {
    case .continuityLost(.historyPurged(_, let firstAvailable)):
      // Watched from the first revision: the bucket no longer holds what
      // came before `firstAvailable`, so resumes from before it get a reset.
      state.withLock { $0.table.raiseHorizon(to: firstAvailable - 1) }
    case .continuityLost(.revisionAhead):
      // Cannot happen from revision 1; nothing is known to be missing.
      break
    case .change(let change):
      apply(change)
    case .caughtUp:
      state.withLock { $0.loaded = true }
      onLoaded()
    }
  }

  private func apply(_ change: KVChange) {
    let now = clock()
    let retention = tombstoneRetentionMs
    state.withLock { state in
      // A redelivery after a reconnection brings nothing new.
      guard change.revision > state.table.lastRevision else { return }
      guard let id = WidgetKey.id(of: change.key) else {
        return state.table.skip(to: change.revision)
      }
      switch change.operation {
      case .put(let bytes):
        guard case .success(let widget) = WidgetValue.decode(bytes, revision: change.revision),
          widget.id == id
        else {
          // Not a widget gauged wrote: it is not served, and gauged's own
          // writes under the key replace it.
          return state.table.skip(to: change.revision)
        }
        // Applied first: `observer?(...)` would skip its argument without one.
        let applied = state.table.replicate(widget)
        observer?(applied)
      case .delete, .purge:
        // Expiry rides on removals, as in the memory store.
        state.table.expireTombstones(removedBefore: now - retention)
        if let removal = state.table.replicateRemoval(
          id: id, revision: change.revision, now: now)
        {
          observer?(removal)
        }
      }
    }
    applied.advance(to: change.revision)
  }

  var isLoaded: Bool { state.withLock { $0.loaded } }

  var lastRevision: UInt64 { state.withLock { $0.table.lastRevision } }

  var census: (widgets: Int, lastRevision: UInt64) {
    state.withLock { ($0.table.count, $0.table.lastRevision) }
  }

  /// The widget under `id` now, or nil.
  func widget(id: String) -> Widget? {
    state.withLock { state in try? state.table.get(id: id) }
  }

  func get(id: String) throws(WidgetError) -> Widget {
    try state.withLock { (state) throws(WidgetError) in try state.table.get(id: id) }
  }

  func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    try state.withLock { (state) throws(WidgetError) in try state.table.list(query) }
  }

  /// Widgets whose stale deadline has passed (see
  /// `WidgetTable.takeDueStaleWidgets`); nothing before the replica loaded.
  func takeDueStaleWidgets(now: Int64, limit: Int) -> [Widget] {
    state.withLock { state in
      guard state.loaded else { return [] }
      return state.table.takeDueStaleWidgets(now: now, limit: limit)
    }
  }

  func recheckStale(id: String) {
    state.withLock { $0.table.recheckStale(id: id) }
  }

  func snapshot() -> (widgets: [Widget], lastRevision: UInt64) {
    state.withLock { ($0.table.widgets, $0.table.lastRevision) }
  }

  func changes(since revision: UInt64) -> ChangesSince {
    let now = clock()
    let retention = tombstoneRetentionMs
    return state.withLock { state in
      state.table.expireTombstones(removedBefore: now - retention)
      return state.table.changes(since: revision)
    }
  }
}
