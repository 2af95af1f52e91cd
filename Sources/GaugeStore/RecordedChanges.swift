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
  let foldThreshold: Int

  private struct Recorded: Sendable {
    var change: WidgetChange
    var removedAtMs: Int64?
  }

  init(foldThreshold: Int = 65_536, expectedCount: Int = 0) {
    self.foldThreshold = max(foldThreshold, 1)
    folded = PendingBatch()
    recent = []
    recent.reserveCapacity(min(expectedCount, self.foldThreshold))
  }

  var isEmpty: Bool { recent.isEmpty && folded.isEmpty }

  /// Changes recorded since the last fold by the recorder.
  var unfoldedCount: Int { recent.count }

  mutating func append(_ change: WidgetChange, removedAtMs: Int64?) {
    recent.append(Recorded(change: change, removedAtMs: removedAtMs))
    if recent.count >= foldThreshold { foldRecent() }
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
  }
}
