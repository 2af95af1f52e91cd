import GaugeDomain

/// Changes recorded since the last commit, reduced to what the file needs:
/// the latest state of each touched widget (a widget updated a thousand
/// times is written once) and the highest revision handed out.
struct PendingBatch: Sendable {
  enum Write: Sendable, Equatable {
    /// `clearsTombstone`: the id was removed earlier (in this batch or on
    /// disk), so its tombstone row must go.
    case upsert(Widget, clearsTombstone: Bool)
    case remove(Tombstone)
  }

  private(set) var writes: [String: Write]
  /// The highest revision among the changes.
  private(set) var lastRevision: UInt64 = 0
  /// Where the last folded widget sits; an insertion can move every
  /// entry, so only an in-place replacement keeps it.
  private var lastFolded: (id: String, index: Dictionary<String, Write>.Index)?
  /// How many changes were folded in.
  private(set) var changeCount = 0

  var isEmpty: Bool { changeCount == 0 }

  /// `capacity`: how many widgets the batch is expected to touch, so a
  /// batch as large as the last one grows without rehashing.
  init(capacity: Int = 0) {
    writes = Dictionary(minimumCapacity: capacity)
  }

  /// How many widget rows and tombstone rows a commit writes.
  var rowCounts: (widgets: Int, removals: Int) {
    var widgets = 0
    for write in writes.values {
      if case .upsert = write { widgets += 1 }
    }
    return (widgets, writes.count - widgets)
  }

  mutating func add(_ change: WidgetChange, removedAtMs: Int64?) {
    switch change {
    case .upserted(let widget, let created):
      fold(.upsert(widget, clearsTombstone: created), id: widget.id)
    case .removed(let id, let revision):
      fold(.remove(Tombstone(id: id, revision: revision, removedAtMs: removedAtMs ?? 0)), id: id)
    }
    lastRevision = max(lastRevision, change.revision)
    changeCount += 1
  }

  /// Lays a later batch over this one, for retrying a failed commit
  /// together with what arrived since.
  mutating func absorb(_ later: PendingBatch) {
    for (id, write) in later.writes { fold(write, id: id) }
    lastRevision = max(lastRevision, later.lastRevision)
    changeCount += later.changeCount
  }

  /// One hash of `id` at most, and none when the same widget changes
  /// again (a producer publishing one widget fast): that is the common case,
  /// and the writer folds every recorded change.
  private mutating func fold(_ write: Write, id: String) {
    guard case .upsert(let widget, let clears) = write else {
      writes[id] = write
      lastFolded = nil
      return
    }
    let index: Dictionary<String, Write>.Index
    if let last = lastFolded, last.id == id {
      index = last.index
    } else if let found = writes.index(forKey: id) {
      index = found
    } else {
      writes[id] = write
      lastFolded = writes.index(forKey: id).map { (id, $0) }
      return
    }
    // An upsert after a removal must still delete the removal's tombstone,
    // even though the removal itself is superseded.
    let earlierClears: Bool
    switch writes.values[index] {
    case .remove: earlierClears = true
    case .upsert(_, let clearsTombstone): earlierClears = clearsTombstone
    }
    writes.values[index] = .upsert(widget, clearsTombstone: clears || earlierClears)
    lastFolded = (id, index)
  }
}
