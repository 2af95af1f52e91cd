import GaugeDomain

/// Changes recorded since the last commit, reduced to what the file needs:
/// the latest state of each touched widget (a widget updated a thousand
/// times is written once) and the highest revision handed out.
///
/// Value-only changes are kept apart, in recorded order, and laid over the
/// rest by revision in `rows`: a value change applies to whatever structure
/// its widget had at that revision, so keeping them separately gives the
/// same result as folding everything in order.
struct PendingBatch: Sendable {
  enum Write: Sendable, Equatable {
    /// `clearsTombstone`: the id was removed earlier (in this batch or on
    /// disk), so its tombstone row must go.
    case upsert(Widget, clearsTombstone: Bool)
    case remove(Tombstone)
  }

  private(set) var writes: [String: Write]
  /// In recorded order, unmerged: the value log takes them as they are
  /// (replay keeps the latest), which spares a hash per change; merged
  /// only past `maxValueChanges`, to keep the batch bounded by widgets.
  /// That cap (about 40 MB) is four of the recorder's runs, so a writer
  /// stalled by a slow disk for a while does not make the event loop merge.
  private(set) var values: [ValueChange]
  let maxValueChanges: Int
  /// The highest revision among the changes.
  private(set) var lastRevision: UInt64 = 0
  /// Where the last folded widget sits; an insertion can move every
  /// entry, so only an in-place replacement keeps it.
  private var lastFolded: (id: String, index: Dictionary<String, Write>.Index)?
  /// How many changes were folded in.
  private(set) var changeCount = 0

  var isEmpty: Bool { changeCount == 0 }

  /// How many widgets the batch touches (an upper bound on its rows).
  var width: Int { writes.count + values.count }

  /// `capacity`: how many widgets the batch is expected to touch, so a
  /// batch as large as the last one grows without rehashing.
  init(capacity: Int = 0, maxValueChanges: Int = 1_048_576) {
    self.maxValueChanges = maxValueChanges
    writes = Dictionary(minimumCapacity: capacity)
    values = []
    values.reserveCapacity(min(capacity, maxValueChanges))
  }

  mutating func add(_ change: WidgetChange, removedAtMs: Int64?) {
    switch change {
    case .upserted(let widget, let created):
      fold(.upsert(widget, clearsTombstone: created), id: widget.id)
    case .valueSet(let widget):
      // Usually recorded as a value; a whole row is as good.
      fold(.upsert(widget, clearsTombstone: false), id: widget.id)
    case .removed(let id, let revision):
      fold(.remove(Tombstone(id: id, revision: revision, removedAtMs: removedAtMs ?? 0)), id: id)
    }
    lastRevision = max(lastRevision, change.revision)
    changeCount += 1
  }

  /// Counts a value change the recorder replaced before folding it.
  mutating func countReplacedValue() {
    changeCount += 1
  }

  mutating func addValue(_ change: ValueChange) {
    if values.appendCoalescing(change), values.count > maxValueChanges { mergeValues() }
    lastRevision = max(lastRevision, change.revision)
    changeCount += 1
  }

  /// `addValue` for each of `changes`, in order; the first run of values
  /// is adopted as it is, without copying it.
  mutating func addValues(_ changes: [ValueChange]) {
    guard values.isEmpty, !changes.isEmpty else {
      for change in changes { addValue(change) }
      return
    }
    values = changes
    for change in changes { lastRevision = max(lastRevision, change.revision) }
    changeCount += changes.count
    if values.count > maxValueChanges { mergeValues() }
  }

  /// Hands the value changes' buffer back, emptied, for recording reuse.
  mutating func takeValueBuffer() -> [ValueChange] {
    var buffer: [ValueChange] = []
    swap(&buffer, &values)
    buffer.removeAll(keepingCapacity: true)
    return buffer
  }

  /// Keeps the latest value change per widget, in revision order.
  private mutating func mergeValues() {
    var latest: [String: ValueChange] = [:]
    for change in values { latest.keepLatest(change) }
    values = latest.values.sorted { $0.revision < $1.revision }
  }

  /// What a commit writes: widget rows for the widgets with other changes
  /// (a later value laid over them), and the value changes of the rest, in
  /// recorded order, for the value log.
  func rows() -> (writes: [String: Write], loggedValues: [ValueChange]) {
    // The producers' case: values only, nothing to match them with.
    if writes.isEmpty { return (writes, values) }
    var resolved = writes
    var logged: [ValueChange] = []
    logged.reserveCapacity(values.count)
    for change in values {
      guard let index = resolved.index(forKey: change.id) else {
        logged.append(change)
        continue
      }
      // An upsert or removal after the value supersedes it.
      if case .upsert(let widget, let clears) = resolved.values[index],
        widget.revision < change.revision
      {
        resolved.values[index] = .upsert(change.applied(to: widget), clearsTombstone: clears)
      }
    }
    return (resolved, logged)
  }

  /// Lays a later batch over this one, for retrying a failed commit
  /// together with what arrived since.
  mutating func absorb(_ later: PendingBatch) {
    for (id, write) in later.writes { fold(write, id: id) }
    values.append(contentsOf: later.values)
    if values.count > maxValueChanges { mergeValues() }
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
