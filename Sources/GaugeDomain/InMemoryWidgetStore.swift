import Synchronization

/// The `WidgetStore`: widgets live in memory, one mutex around one
/// `WidgetTable`; an optional `WidgetPersistence` makes each change durable.
/// Critical sections hold only the table transition, the clock read, the
/// persistence queueing and the observer call.
public final class InMemoryWidgetStore: WidgetStore {
  private let table: Mutex<WidgetTable>
  private let clock: @Sendable () -> Int64
  private let observer: (@Sendable (WidgetChange) -> Void)?
  private let batchObserver: (@Sendable ([WidgetChange]) -> Void)?
  private let persistence: (any WidgetPersistence)?
  private let tombstoneRetentionMs: Int64

  /// - Parameters:
  ///   - table: state to resume from (see `WidgetTable.init`).
  ///   - clock: Unix milliseconds. Read inside the critical section so
  ///     timestamps never run backwards against revisions.
  ///   - persistence: told of each change inside the critical section, in
  ///     revision order; nil keeps widgets in memory only.
  ///   - tombstoneRetentionMs: how long removals are remembered for resumes.
  ///   - observer: called with each accepted change while the lock is held,
  ///     so observers see changes in strict revision order with no gap or
  ///     reordering between threads. It must be quick and must not call back
  ///     into the store (the mutex is not reentrant).
  ///   - batchObserver: when set, `setValues` hands it the accepted changes
  ///     of each batch, in order, instead of calling `observer` once per
  ///     change; the same rules apply. A producer's burst then costs the
  ///     observer one call (the change hub: one lock per loop per batch).
  public init(
    table: WidgetTable = WidgetTable(),
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds,
    persistence: (any WidgetPersistence)? = nil,
    tombstoneRetentionMs: Int64 = 24 * 3600 * 1000,
    observer: (@Sendable (WidgetChange) -> Void)? = nil,
    batchObserver: (@Sendable ([WidgetChange]) -> Void)? = nil
  ) {
    self.table = Mutex(table)
    self.clock = clock
    self.persistence = persistence
    self.tombstoneRetentionMs = tombstoneRetentionMs
    self.observer = observer
    self.batchObserver = batchObserver
  }

  public convenience init(
    widgets: [Widget] = [], lastRevision: UInt64 = 0,
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds,
    observer: (@Sendable (WidgetChange) -> Void)? = nil
  ) {
    self.init(
      table: WidgetTable(widgets: widgets, lastRevision: lastRevision), clock: clock,
      observer: observer)
  }

  public func put(_ request: WidgetPut) throws(WidgetError) -> (widget: Widget, created: Bool) {
    let change = try apply { (table, now) throws(WidgetError) in try table.put(request, now: now) }
    guard case .upserted(let widget, let created) = change else {
      preconditionFailure("put produced \(change)")
    }
    return (widget, created)
  }

  public func update(_ request: WidgetUpdate) throws(WidgetError) -> Widget {
    try upsertedWidget(
      apply { (table, now) throws(WidgetError) in try table.update(request, now: now) })
  }

  public func update(_ request: TemplateValueUpdate) throws(WidgetError) -> Widget {
    try upsertedWidget(
      apply { (table, now) throws(WidgetError) in try table.update(request, now: now) })
  }

  public func setValue(_ value: Double, id: String) throws(WidgetError) -> Widget {
    try upsertedWidget(
      apply { (table, now) throws(WidgetError) in
        try table.setValue(value, id: id, now: now)
      })
  }

  public func setValues(_ updates: [ValueSet]) -> [ValueSetRejection] {
    table.withLock { table in
      if let blocker = persistence?.writeBlocker {
        return updates.indices.map { ValueSetRejection(offset: $0, error: blocker) }
      }
      let now = clock()
      var rejections: [ValueSetRejection] = []
      var recorded: [ValueChange] = []
      if persistence != nil { recorded.reserveCapacity(updates.count) }
      var observed: [WidgetChange] = []
      if batchObserver != nil { observed.reserveCapacity(updates.count) }
      for (offset, update) in updates.enumerated() {
        do throws(WidgetError) {
          let change = try table.setValue(update.value, id: update.id, now: now)
          if persistence != nil {
            record(update.value, id: update.id, now: now, in: &recorded, from: table)
          }
          if batchObserver != nil { observed.append(change) } else { observer?(change) }
        } catch {
          rejections.append(ValueSetRejection(offset: offset, error: error))
        }
      }
      // Still inside the critical section: persistence and observers see
      // the batch in revision order with every other thread's changes.
      if !recorded.isEmpty { persistence?.recordValues(recorded) }
      if !observed.isEmpty { batchObserver?(observed) }
      return rejections
    }
  }

  /// Adds the value `table` just stored to `recorded`. A run of values for
  /// one widget (a producer publishing one gauge fast) is recorded as its
  /// last: persistence keeps the latest value per widget anyway, and the
  /// run then copies its id once. A slot stands for one widget for the
  /// whole batch, since nothing is removed in it. Built from what the table
  /// stored rather than read back from the change: binding its widget
  /// copies it (a retain and release per field), per value, in the durable
  /// modes only.
  private func record(
    _ value: Double, id: String, now: Int64, in recorded: inout [ValueChange],
    from table: borrowing WidgetTable
  ) {
    let slot = table.lastSetValueSlot
    if let last = recorded.indices.last, slot >= 0, recorded[last].tableSlot == slot {
      recorded[last].value = value
      recorded[last].revision = table.lastRevision
      recorded[last].updatedAtMs = now
      return
    }
    recorded.append(
      ValueChange(
        id: id, value: value, revision: table.lastRevision, updatedAtMs: now, tableSlot: slot))
  }

  public func get(id: String) throws(WidgetError) -> Widget {
    try table.withLock { (table) throws(WidgetError) in try table.get(id: id) }
  }

  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    try table.withLock { (table) throws(WidgetError) in try table.list(query) }
  }

  public func delete(id: String) throws(WidgetError) {
    let retention = tombstoneRetentionMs
    _ = try apply { (table, now) throws(WidgetError) in
      // Expiry rides on removals: tombstones only grow when widgets are
      // removed, so that is when they need trimming.
      table.expireTombstones(removedBefore: now - retention)
      return try table.delete(id: id, now: now)
    }
  }

  public func put(_ request: WidgetPut, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try upserted(
      apply { (table, now) throws(WidgetError) in
        try table.check(precondition, id: request.id)
        return try table.put(request, now: now)
      })
  }

  public func update(_ request: WidgetUpdate, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try upserted(
      apply { (table, now) throws(WidgetError) in
        try table.check(precondition, id: request.id)
        return try table.update(request, now: now)
      })
  }

  public func delete(id: String, precondition: WritePrecondition) throws(WidgetError) {
    let retention = tombstoneRetentionMs
    _ = try apply { (table, now) throws(WidgetError) in
      try table.check(precondition, id: id)
      table.expireTombstones(removedBefore: now - retention)
      return try table.delete(id: id, now: now)
    }
  }

  /// Marks stale the widgets whose `staleAfterMs` ran out (see
  /// `WidgetTable.markStale`); persistence and observers get each change
  /// as they would a write's. Returns how many were marked. A look at the
  /// earliest deadline is all it costs while none is due; while writes are
  /// refused, nothing is marked and the next call tries again. Many
  /// deadlines due at once (a producer of thousands of widgets gone) are
  /// taken `staleChunk` at a time, the lock released between chunks, so
  /// writes wait for one chunk, never for all of them.
  @discardableResult
  public func markStaleWidgets() -> Int {
    var marked = 0
    while true {
      let (count, more) = table.withLock { table -> (Int, Bool) in
        let now = clock()
        guard table.isStaleCheckDue(at: now), persistence?.writeBlocker == nil else {
          return (0, false)
        }
        let changes = table.markStale(now: now, limit: Self.staleChunk)
        for change in changes { persistence?.record(change, removedAtMs: nil) }
        if let batchObserver, !changes.isEmpty {
          batchObserver(changes)
        } else {
          for change in changes { observer?(change) }
        }
        return (changes.count, table.isStaleCheckDue(at: now))
      }
      marked += count
      if !more { return marked }
    }
  }

  static let staleChunk = 1024

  /// How many widgets there are and the revision reached, for metrics:
  /// one short hold of the lock, no copy of the widgets.
  public var census: (widgets: Int, lastRevision: UInt64) {
    table.withLock { ($0.count, $0.lastRevision) }
  }

  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) {
    table.withLock { table in (table.widgets, table.lastRevision) }
  }

  public func changes(since revision: UInt64) -> ChangesSince {
    let retention = tombstoneRetentionMs
    let now = clock()
    return table.withLock { table in
      table.expireTombstones(removedBefore: now - retention)
      return table.changes(since: revision)
    }
  }

  public func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    guard let persistence else { return done(.success(())) }
    persistence.whenDurable(done)
  }

  public var durabilityIfSettled: Result<Void, WidgetError>? {
    guard let persistence else { return .success(()) }
    return persistence.durabilityIfSettled
  }

  /// A change that set nothing but a widget's value reaches persistence as
  /// a `ValueChange`, whichever request made it: value-only UpdateWidget
  /// calls are most of the unary writes, and a value is logged in a few
  /// bytes where a widget row is encoded and upserted.
  private func apply(
    _ transition: (inout WidgetTable, Int64) throws(WidgetError) -> WidgetChange
  ) throws(WidgetError) -> WidgetChange {
    try table.withLock { (table) throws(WidgetError) in
      if let blocker = persistence?.writeBlocker { throw blocker }
      let now = clock()
      let change = try transition(&table, now)
      // Optional chaining, not `if let`: binding copies the existential
      // (a retain and release per change on the producers' path).
      switch change {
      case .removed:
        persistence?.record(change, removedAtMs: now)
      case .valueSet(let widget):
        persistence?.recordValue(valueChange(widget, slot: table.lastSetValueSlot))
      case .upserted:
        persistence?.record(change, removedAtMs: nil)
      }
      observer?(change)
      return change
    }
  }

  private func valueChange(_ widget: Widget, slot: Int32) -> ValueChange {
    ValueChange(
      id: widget.id, value: widget.content.templateValue, revision: widget.revision,
      updatedAtMs: widget.updatedAtMs, tableSlot: slot)
  }

  private func upserted(_ change: WidgetChange) -> (widget: Widget, created: Bool) {
    switch change {
    case .upserted(let widget, let created): (widget, created)
    case .valueSet(let widget): (widget, false)
    case .removed: preconditionFailure("an upsert produced \(change)")
    }
  }

  private func upsertedWidget(_ change: WidgetChange) -> Widget {
    guard let widget = change.widget else {
      preconditionFailure("an upsert produced \(change)")
    }
    return widget
  }
}
