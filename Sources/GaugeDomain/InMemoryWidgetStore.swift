import Synchronization

/// A `WidgetStore` that keeps widgets in memory, one mutex around one
/// `WidgetTable`. Critical sections hold only the table transition, the
/// clock read and the observer call.
public final class InMemoryWidgetStore: WidgetStore {
  private let table: Mutex<WidgetTable>
  private let clock: @Sendable () -> Int64
  private let observer: (@Sendable (WidgetChange) -> Void)?

  /// - Parameters:
  ///   - widgets, lastRevision: state to resume from (see `WidgetTable.init`).
  ///   - clock: Unix milliseconds. Read inside the critical section so
  ///     timestamps never run backwards against revisions.
  ///   - observer: called with each accepted change while the lock is held,
  ///     so observers see changes in strict revision order with no gap or
  ///     reordering between threads. It must be quick and must not call back
  ///     into the store (the mutex is not reentrant).
  public init(
    widgets: [Widget] = [], lastRevision: UInt64 = 0,
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds,
    observer: (@Sendable (WidgetChange) -> Void)? = nil
  ) {
    self.table = Mutex(WidgetTable(widgets: widgets, lastRevision: lastRevision))
    self.clock = clock
    self.observer = observer
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

  /// Sets the main value of an existing widget, whatever its template.
  public func setValue(_ value: Double, id: String) throws(WidgetError) -> Widget {
    try upsertedWidget(
      apply { (table, now) throws(WidgetError) in try table.setValue(value, id: id, now: now) })
  }

  public func get(id: String) throws(WidgetError) -> Widget {
    try table.withLock { (table) throws(WidgetError) in try table.get(id: id) }
  }

  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    try table.withLock { (table) throws(WidgetError) in try table.list(query) }
  }

  public func delete(id: String) throws(WidgetError) {
    _ = try apply { (table, _) throws(WidgetError) in try table.delete(id: id) }
  }

  /// Every widget in id order and the revision they are consistent with.
  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) {
    table.withLock { table in (table.widgets, table.lastRevision) }
  }

  private func apply(
    _ transition: (inout WidgetTable, Int64) throws(WidgetError) -> WidgetChange
  ) throws(WidgetError) -> WidgetChange {
    try table.withLock { (table) throws(WidgetError) in
      let change = try transition(&table, clock())
      observer?(change)
      return change
    }
  }

  private func upsertedWidget(_ change: WidgetChange) -> Widget {
    guard case .upserted(let widget, _) = change else {
      preconditionFailure("an upsert produced \(change)")
    }
    return widget
  }
}
