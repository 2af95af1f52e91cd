import GaugeDomain

/// Changes waiting for a commit, kept as recorded: the event loops only
/// append, inside the store's critical section, and the writer folds them
/// into a `PendingBatch` on its own thread. Hashing and merging per change
/// would otherwise sit on the producers' hot path.
///
/// Past `foldThreshold` unfolded changes the recorder folds them itself, so
/// a writer that falls behind costs memory bounded by the widgets touched,
/// not by the update rate.
struct RecordedChanges: Sendable {
  private(set) var folded: PendingBatch
  private var recent: [Recorded]
  /// Value-only changes, apart: they hold no widget, so recording one
  /// touches no storage the writer thread releases later.
  private var recentValues: [ValueChange]
  let foldThreshold: Int

  private struct Recorded: Sendable {
    var change: WidgetChange
    var removedAtMs: Int64?
  }

  /// `spareValues`: an emptied buffer from an earlier batch, so recording
  /// reuses its capacity instead of growing a new one on the event loop.
  init(foldThreshold: Int = 262_144, spareValues: consuming [ValueChange] = []) {
    self.foldThreshold = max(foldThreshold, 1)
    folded = PendingBatch()
    recent = []
    spareValues.removeAll(keepingCapacity: true)
    recentValues = spareValues
  }

  var isEmpty: Bool { recent.isEmpty && recentValues.isEmpty && folded.isEmpty }

  /// Changes recorded since the last fold by the recorder.
  var unfoldedCount: Int { recent.count + recentValues.count }

  mutating func append(_ change: WidgetChange, removedAtMs: Int64?) {
    recent.append(Recorded(change: change, removedAtMs: removedAtMs))
    if unfoldedCount >= foldThreshold { foldRecent() }
  }

  mutating func appendValue(_ change: ValueChange) {
    guard recentValues.appendCoalescing(change) else {
      folded.countReplacedValue()
      return
    }
    if unfoldedCount >= foldThreshold { foldRecent() }
  }

  /// Everything recorded, latest state per widget. `expectedWidgets`
  /// sizes the fold, typically the last batch's width.
  consuming func batch(expectedWidgets: Int = 0) -> PendingBatch {
    if folded.isEmpty { folded = PendingBatch(capacity: expectedWidgets) }
    foldRecent()
    return folded
  }

  private mutating func foldRecent() {
    for recorded in recent { folded.add(recorded.change, removedAtMs: recorded.removedAtMs) }
    recent.removeAll(keepingCapacity: true)
    folded.addValues(take(&recentValues))
  }

  private func take(_ values: inout [ValueChange]) -> [ValueChange] {
    var taken: [ValueChange] = []
    swap(&taken, &values)
    return taken
  }
}
