/// Every widget and the server-wide revision counter, as one value: each
/// transition validates the whole request first and then either applies it
/// whole, taking exactly one revision, or throws and changes nothing.
/// Not synchronised; `InMemoryWidgetStore` guards one with a mutex.
public struct WidgetTable: Sendable {
  private var widgetsByID: [String: Entry] = [:]
  /// Slots of removed widgets, for reuse; `slotCount` slots exist.
  private var freeSlots: [Int32] = []
  private var slotCount: Int32 = 0
  /// The slot of the widget the last `setValue` changed (see `Entry.slot`).
  public private(set) var lastSetValueSlot: Int32 = -1

  /// A widget and its slot: a small number that stays the widget's own
  /// while it exists and goes to another widget only after its removal.
  /// Persistence keeps per-widget state in arrays by slot, so the value
  /// path does not hash ids a second time (`ValueChange.tableSlot`).
  private struct Entry: Sendable {
    var widget: Widget
    let slot: Int32
    /// The due time of this widget's entry in `staleDeadlines`, if it has
    /// one: an entry whose time is not this one was superseded.
    var staleCheckDueMs: Int64? = nil
  }
  private var staleDeadlines = StaleDeadlines()
  private var orderedIDs = SortedIDs([])
  private var tombstoneLog: TombstoneLog
  /// The revision of the last accepted change; 0 before the first.
  public private(set) var lastRevision: UInt64

  /// Resumes from stored state. If an id repeats, the widget with the higher
  /// revision wins; the counter never restarts below a stored revision.
  /// `horizon`: resumes from a revision below it cannot be answered (removals
  /// before it are forgotten, or it predates this table's history).
  public init(
    widgets: [Widget] = [], lastRevision: UInt64 = 0, tombstones: [Tombstone] = [],
    horizon: UInt64 = 0
  ) {
    var highest = lastRevision
    for widget in widgets {
      highest = max(highest, widget.revision)
      if let known = widgetsByID[widget.id] {
        if known.widget.revision <= widget.revision { widgetsByID[widget.id]!.widget = widget }
        continue
      }
      widgetsByID[widget.id] = Entry(widget: widget, slot: slotCount)
      slotCount += 1
    }
    for tombstone in tombstones { highest = max(highest, tombstone.revision) }
    let live = widgetsByID
    self.orderedIDs = SortedIDs(live.keys)
    self.lastRevision = highest
    self.tombstoneLog = TombstoneLog(tombstones.filter { live[$0.id] == nil }, horizon: horizon)
    // A widget whose deadline passed while the server was down is due at
    // once: the first `markStale` marks it.
    for index in widgetsByID.indices { scheduleStaleCheck(at: index) }
  }

  /// Removals still remembered, in revision order.
  public var tombstones: [Tombstone] { tombstoneLog.all }

  public var horizon: UInt64 { tombstoneLog.horizon }

  /// What changed after `revision`, or `.unknown` when that cannot be told.
  public func changes(since revision: UInt64) -> ChangesSince {
    guard revision >= tombstoneLog.horizon, revision <= lastRevision else { return .unknown }
    let upserts = orderedIDs.ids.compactMap { id -> Widget? in
      let widget = widgetsByID[id]!.widget
      return widget.revision > revision ? widget : nil
    }
    return .changes(
      upserts: upserts, removals: tombstoneLog.removals(after: revision),
      lastRevision: lastRevision)
  }

  /// Forgets removals made before `cutoffMs`; resumes from before the
  /// newest forgotten one get `.unknown` from then on.
  @discardableResult
  public mutating func expireTombstones(removedBefore cutoffMs: Int64) -> Int {
    tombstoneLog.expire(removedBefore: cutoffMs)
  }

  public var count: Int { widgetsByID.count }

  /// Every widget, ordered by id.
  public var widgets: [Widget] {
    orderedIDs.ids.map { widgetsByID[$0]!.widget }
  }

  public func get(id: String) throws(WidgetError) -> Widget {
    let id = try Self.validID(id)
    guard let entry = widgetsByID[id] else { throw .notFound(id: id) }
    return entry.widget
  }

  /// One page of the widgets whose id starts with `idPrefix`, ordered by id.
  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    let request = try PageRequest(query)
    let prefix = request.idPrefix.utf8
    var index = orderedIDs.firstIndex(notBefore: request.idPrefix)
    if let afterID = request.afterID {
      index = max(index, orderedIDs.firstIndex(after: afterID))
    }
    func matches(_ index: Int) -> Bool {
      index < orderedIDs.count && orderedIDs[index].utf8.starts(with: prefix)
    }
    var widgets: [Widget] = []
    while widgets.count < request.size, matches(index) {
      widgets.append(widgetsByID[orderedIDs[index]]!.widget)
      index += 1
    }
    let nextPageToken = matches(index) ? PageToken.encode(lastID: widgets.last!.id) : ""
    return WidgetPage(widgets: widgets, nextPageToken: nextPageToken)
  }

  /// Creates or replaces the widget; content is built from the request
  /// alone. A replacement keeps `createdAtMs`.
  public mutating func put(_ request: WidgetPut, now: Int64) throws(WidgetError) -> WidgetChange {
    var violations = Violations()
    let id = violations.requireID(request.id)
    let resolved = violations.resolve(
      WidgetDraft(name: request.name, content: request.content, staleAfterMs: request.staleAfterMs))
    try violations.check()
    return try store(id: id!, resolved!, now: now)
  }

  /// Merges the request onto the stored widget, or onto nothing when the id
  /// is unknown (which creates the widget if the result is complete). An
  /// update that changes nothing is still accepted, re-stamped and given a
  /// revision: producers use it as a heartbeat.
  public mutating func update(_ request: WidgetUpdate, now: Int64) throws(WidgetError)
    -> WidgetChange
  {
    // Looked up once, and the stored widget only looked at, not copied:
    // this is every value-only UpdateWidget.
    if let id = request.id, let (template, value) = Self.onlyValue(of: request),
      let index = index(ofExactly: id),
      template.kind == widgetsByID.values[index].widget.content.template.kind
    {
      return try setValue(value, id: id, at: index, now: now)
    }
    var violations = Violations()
    let id = violations.requireID(request.id)
    let stored = id.flatMap { widgetsByID[$0]?.widget }
    var draft = (stored.map(WidgetDraft.init) ?? WidgetDraft(name: nil, content: nil))
      .overlaid(with: request)
    // clear_fields is the request's last field, so its violations go last.
    var clearViolations = Violations()
    clearViolations.applyClearFields(of: request, to: &draft)
    let resolved = violations.resolve(draft)
    violations.append(contentsOf: clearViolations)
    try violations.check()
    return try store(id: id!, resolved!, now: now)
  }

  /// `update(request.widgetUpdate, now:)`, without building the patch when
  /// the stored widget has the template the request names.
  public mutating func update(_ request: TemplateValueUpdate, now: Int64) throws(WidgetError)
    -> WidgetChange
  {
    if let index = index(ofExactly: request.id),
      request.kind == widgetsByID.values[index].widget.content.template.kind
    {
      return try setValue(request.value, id: request.id, at: index, now: now)
    }
    return try update(request.widgetUpdate, now: now)
  }

  /// The new value when a request sets nothing but a template's value
  /// (`gaugectl set`, dashboards' producers): when the stored widget has
  /// that template, the update takes the `setValue` path, which checks the
  /// same rules.
  private static func onlyValue(of request: WidgetUpdate) -> (TemplatePatch, Double)? {
    // Field checks, not a comparison with a patch built for it: this runs
    // on every UpdateWidget, and building and comparing cost 3% of one.
    guard request.name == nil, request.clearFields.isEmpty, request.staleAfterMs == nil,
      request.content?.setsOnlyTemplate == true, let template = request.content?.template
    else { return nil }
    let value: Double?
    switch template {
    case .gauge(let patch) where patch.setsOnlyValue: value = patch.value
    case .progress(let patch): value = patch.value
    case .value(let patch) where patch.setsOnlyValue: value = patch.value
    default: value = nil
    }
    return value.map { (template, $0) }
  }

  /// Sets the main value of an existing widget, whatever its template: the
  /// PublishValues path, where a producer knows the number but not the kind.
  /// The stored widget is valid, so only the rules that involve the value
  /// are checked: the same rules, and messages, as a full update.
  public mutating func setValue(_ value: Double, id: String, now: Int64) throws(WidgetError)
    -> WidgetChange
  {
    // One hash of the id and the widget changed in place: this is the
    // producers' hot path, taken once per published value.
    guard let index = index(ofExactly: id) else {
      _ = try Self.validID(id)
      throw .notFound(id: id)
    }
    return try setValue(value, id: id, at: index, now: now)
  }

  private mutating func setValue(
    _ value: Double, id: String, at index: [String: Entry].Index, now: Int64
  ) throws(WidgetError) -> WidgetChange {
    let (widget, slot, wasStale) = try Self.setValue(
      value, id: id, now: now, after: lastRevision, in: &widgetsByID.values[index])
    lastRevision = widget.revision
    lastSetValueSlot = slot
    // A watched widget that is not stale keeps its heap entry, which finds
    // the later deadline when it comes due; a stale one had none left.
    if wasStale { scheduleStaleCheck(at: index) }
    return .valueSet(widget)
  }

  /// `setValue` on the entry in one access: reading it through the
  /// dictionary first would copy the widget, a retain and release of each
  /// of its fields, once per published value.
  private static func setValue(
    _ value: Double, id: String, now: Int64, after lastRevision: UInt64, in entry: inout Entry
  ) throws(WidgetError) -> (Widget, Int32, wasStale: Bool) {
    try checkValue(value, for: entry.widget.content.template)
    let revision = try revision(after: lastRevision)
    let wasStale = entry.widget.stale
    ValueChange(id: id, value: value, revision: revision, updatedAtMs: now)
      .apply(to: &entry.widget)
    return (entry.widget, entry.slot, wasStale)
  }

  /// The rules a value must meet as `template`'s main value, with the same
  /// messages as a full update: for stores that set values on a copy.
  public static func checkValue(_ value: Double, for template: Template) throws(WidgetError) {
    var violations = Violations()
    switch template {
    case .gauge(let gauge):
      let field = "content.gauge.value"
      if let finite = violations.requireFinite(value, at: field) {
        violations.requireWithin(finite, gauge.minValue...gauge.maxValue, at: field)
      }
    case .progress:
      let field = "content.progress.value"
      if let finite = violations.requireFinite(value, at: field) {
        violations.requireWithin(finite, 0...1, at: field)
      }
    case .value:
      _ = violations.requireFinite(value, at: "content.value.value")
    }
    try violations.check()
  }

  public mutating func delete(id: String, now: Int64 = 0) throws(WidgetError) -> WidgetChange {
    let id = try Self.validID(id)
    guard widgetsByID[id] != nil else { throw .notFound(id: id) }
    let revision = try nextRevision()
    if let removed = widgetsByID.removeValue(forKey: id) { freeSlots.append(removed.slot) }
    orderedIDs.remove(id)
    tombstoneLog.record(Tombstone(id: id, revision: revision, removedAtMs: now))
    lastRevision = revision
    return .removed(id: id, revision: revision)
  }

  private mutating func store(
    id: String, _ resolved: ResolvedDraft, now: Int64
  ) throws(WidgetError) -> WidgetChange {
    let revision = try nextRevision()
    let existing = widgetsByID[id]
    let widget = Widget(
      id: id, name: resolved.name, content: resolved.content, revision: revision,
      createdAtMs: existing?.widget.createdAtMs ?? now, updatedAtMs: now,
      staleAfterMs: resolved.staleAfterMs)
    widgetsByID[id] = Entry(
      widget: widget, slot: existing?.slot ?? takeSlot(),
      staleCheckDueMs: existing?.staleCheckDueMs)
    if widget.staleAfterMs != nil, let index = widgetsByID.index(forKey: id) {
      scheduleStaleCheck(at: index)
    }
    if existing == nil {
      orderedIDs.insert(id)
      tombstoneLog.forget(id: id)
    }
    lastRevision = revision
    return .upserted(widget, created: existing == nil)
  }

  // MARK: Replication

  /// Applies a widget numbered by another store (a shared bucket's
  /// sequence): it replaces whatever the table holds under its id, and
  /// the counter moves to its revision. Nothing is validated or stamped:
  /// the writer did both. The caller applies revisions in increasing order.
  public mutating func replicate(_ widget: Widget) -> WidgetChange {
    let existing = widgetsByID[widget.id]
    widgetsByID[widget.id] = Entry(
      widget: widget, slot: existing?.slot ?? takeSlot(),
      staleCheckDueMs: existing?.staleCheckDueMs)
    if widget.staleAfterMs != nil, let index = widgetsByID.index(forKey: widget.id) {
      scheduleStaleCheck(at: index)
    }
    if existing == nil {
      orderedIDs.insert(widget.id)
      tombstoneLog.forget(id: widget.id)
    }
    lastRevision = max(lastRevision, widget.revision)
    // Another instance's value-only write arrives whole: told apart here,
    // so that subscribers who asked for value deltas get one on every
    // instance alike.
    if let existing,
      ValueChange(
        id: widget.id, value: widget.content.mainValue, revision: widget.revision,
        updatedAtMs: widget.updatedAtMs
      ).applied(to: existing.widget) == widget
    {
      return .valueSet(widget)
    }
    return .upserted(widget, created: existing == nil)
  }

  /// Applies a removal numbered by another store. The tombstone is kept
  /// even when the id is unknown here (a bucket keeps only a key's delete
  /// marker once its value is gone), so resumes from before it learn of
  /// it; the change is returned only when a widget was removed.
  public mutating func replicateRemoval(id: String, revision: UInt64, now: Int64)
    -> WidgetChange?
  {
    let removed = widgetsByID.removeValue(forKey: id)
    if let removed {
      freeSlots.append(removed.slot)
      orderedIDs.remove(id)
    }
    tombstoneLog.record(Tombstone(id: id, revision: revision, removedAtMs: now))
    lastRevision = max(lastRevision, revision)
    return removed == nil ? nil : .removed(id: id, revision: revision)
  }

  /// Moves the counter past a revision that changed no widget here (a
  /// shared store's entry that is not a widget).
  public mutating func skip(to revision: UInt64) {
    lastRevision = max(lastRevision, revision)
  }

  /// Resumes from below `revision` get `.unknown` from now on: a shared
  /// store no longer holds the history before it.
  public mutating func raiseHorizon(to revision: UInt64) {
    tombstoneLog.raiseHorizon(to: revision)
  }

  // MARK: Staleness

  /// The earliest time a widget may go stale; nil when none is watched.
  public var earliestStaleCheckMs: Int64? { staleDeadlines.earliestDueMs }

  /// Whether a deadline is due at `now`.
  public func isStaleCheckDue(at now: Int64) -> Bool {
    staleDeadlines.earliestDueMs.map { $0 <= now } ?? false
  }

  /// Entries in the deadline heap, superseded ones included.
  var staleCheckCount: Int { staleDeadlines.count }

  /// Marks stale every widget whose deadline has passed at `now`, each
  /// taking a revision of its own, and returns those changes in order.
  /// Leaves `updatedAtMs` alone: it still says when the last write came.
  /// With the revision counter exhausted, nothing more is marked. At most
  /// `limit` due entries are looked at; `isStaleCheckDue` tells whether
  /// more are.
  public mutating func markStale(now: Int64, limit: Int = .max) -> [WidgetChange] {
    var changes: [WidgetChange] = []
    var looked = 0
    while let index = nextDueStaleWidget(now: now, looked: &looked, limit: limit) {
      guard let revision = try? nextRevision() else {
        scheduleStaleCheck(at: index)
        break
      }
      widgetsByID.values[index].widget.stale = true
      widgetsByID.values[index].widget.revision = revision
      lastRevision = revision
      changes.append(.upserted(widgetsByID.values[index].widget, created: false))
    }
    return changes
  }

  /// The widgets whose deadline has passed at `now` (at most `limit` due
  /// entries looked at), left unchanged: a shared store marks them through
  /// its bucket, and its replica learns of the mark like any other change.
  /// Their entries are taken; `recheckStale(id:)` gives one back when the
  /// mark could not be written.
  public mutating func takeDueStaleWidgets(now: Int64, limit: Int) -> [Widget] {
    var due: [Widget] = []
    var looked = 0
    while let index = nextDueStaleWidget(now: now, looked: &looked, limit: limit) {
      due.append(widgetsByID.values[index].widget)
    }
    return due
  }

  /// The next widget whose deadline has passed at `now`, its heap entry
  /// taken; nil once none is due or `limit` entries were looked at
  /// (`looked` counts them). Superseded entries are dropped, and a widget
  /// whose deadline moved on is given its new one.
  private mutating func nextDueStaleWidget(now: Int64, looked: inout Int, limit: Int)
    -> [String: Entry].Index?
  {
    while looked < limit, let due = staleDeadlines.popDue(atOrBefore: now) {
      looked += 1
      guard let index = widgetsByID.index(forKey: due.id),
        widgetsByID.values[index].staleCheckDueMs == due.dueMs
      else { continue }
      widgetsByID.values[index].staleCheckDueMs = nil
      guard let deadline = widgetsByID.values[index].widget.staleDeadlineMs else { continue }
      if deadline > now {
        scheduleStaleCheck(at: index)
        continue
      }
      return index
    }
    return nil
  }

  /// Checks the widget's deadline again (a mark that failed to be written).
  public mutating func recheckStale(id: String) {
    guard let index = widgetsByID.index(forKey: id) else { return }
    scheduleStaleCheck(at: index)
  }

  /// Gives the widget at `index` a heap entry at its deadline, unless the
  /// one it has comes first (it then finds the deadline when due).
  private mutating func scheduleStaleCheck(at index: [String: Entry].Index) {
    guard let deadline = widgetsByID.values[index].widget.staleDeadlineMs else { return }
    if let scheduled = widgetsByID.values[index].staleCheckDueMs, scheduled <= deadline { return }
    widgetsByID.values[index].staleCheckDueMs = deadline
    staleDeadlines.insert(id: widgetsByID.keys[index], dueMs: deadline)
    // Entries of removed widgets and superseded ones wait for their time;
    // past twice the widgets, they are dropped in one pass.
    if staleDeadlines.count > 2 * widgetsByID.count + 1024 {
      staleDeadlines.rebuild(
        from: widgetsByID.compactMap { id, entry in
          entry.staleCheckDueMs.map { StaleDeadlines.Entry(dueMs: $0, id: id) }
        })
    }
  }

  private mutating func takeSlot() -> Int32 {
    if let slot = freeSlots.popLast() { return slot }
    slotCount += 1
    return slotCount - 1
  }

  /// Refusing beats wrapping: a repeated revision would break every
  /// subscriber's resume point.
  private func nextRevision() throws(WidgetError) -> UInt64 {
    try Self.revision(after: lastRevision)
  }

  private static func revision(after last: UInt64) throws(WidgetError) -> UInt64 {
    guard last < .max else { throw .unavailable("the revision counter is exhausted") }
    return last + 1
  }

  /// The entry stored under exactly `id`. `String` equality is Unicode's
  /// canonical equivalence, so a lookup alone lets "\u{212A}elvin" (with
  /// KELVIN SIGN) reach the widget "Kelvin". Ids are ASCII: a spelling
  /// that is equivalent but not the same bytes is not a valid id, and the
  /// value paths, which check the id only when it is not found, must not
  /// take it for one.
  ///
  /// Comparing lengths is enough, and costs nothing per value (comparing
  /// the bytes with `elementsEqual` cost 2% of an UpdateWidget): a stored
  /// key is ASCII, and a string canonically equivalent to an ASCII one but
  /// not equal to it holds a scalar of two or more bytes whose canonical
  /// decomposition is one ASCII character (as U+212A is "K"), so it is
  /// longer.
  private func index(ofExactly id: String) -> [String: Entry].Index? {
    guard let index = widgetsByID.index(forKey: id),
      widgetsByID.keys[index].utf8.count == id.utf8.count
    else { return nil }
    return index
  }

  private static func validID(_ id: String) throws(WidgetError) -> String {
    var violations = Violations()
    let valid = violations.requireID(id)
    try violations.check()
    return valid!
  }
}
