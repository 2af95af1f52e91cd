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

  private(set) var writes: [String: Write] = [:]
  /// The highest revision among the changes.
  private(set) var lastRevision: UInt64 = 0
  /// How many changes were folded in.
  private(set) var changeCount = 0

  var isEmpty: Bool { changeCount == 0 }

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

  private mutating func fold(_ write: Write, id: String) {
    guard case .upsert(let widget, let clears) = write, let earlier = writes[id] else {
      writes[id] = write
      return
    }
    // An upsert after a removal must still delete the removal's tombstone,
    // even though the removal itself is superseded.
    let earlierClears: Bool
    switch earlier {
    case .remove: earlierClears = true
    case .upsert(_, let clearsTombstone): earlierClears = clearsTombstone
    }
    writes[id] = .upsert(widget, clearsTombstone: clears || earlierClears)
  }
}
