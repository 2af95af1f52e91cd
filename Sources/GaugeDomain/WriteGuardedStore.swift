/// A store in front of another that refuses writes to some ids before the
/// store behind sees them (`ReservedPrefixStore`, `ReachLimitedWidgetStore`):
/// every write method checks its id with `writeRefusal(for:)` and passes on,
/// a batch of values is refused item by item in place. Reads, snapshots and
/// durability pass through unless the store says otherwise.
public protocol WriteGuardedStore: WidgetStore {
  var base: any WidgetStore { get }
  /// Why a write to `id` is refused; nil when it may go on.
  func writeRefusal(for id: String) -> WidgetError?
}

extension WriteGuardedStore {
  func checkWrite(_ id: String?) throws(WidgetError) {
    if let id, let refusal = writeRefusal(for: id) { throw refusal }
  }

  public func put(_ request: WidgetPut) throws(WidgetError) -> (widget: Widget, created: Bool) {
    try checkWrite(request.id)
    return try base.put(request)
  }

  public func update(_ request: WidgetUpdate) throws(WidgetError) -> Widget {
    try checkWrite(request.id)
    return try base.update(request)
  }

  public func update(_ request: TemplateValueUpdate) throws(WidgetError) -> Widget {
    try checkWrite(request.id)
    return try base.update(request)
  }

  public func setValue(_ value: Double, id: String) throws(WidgetError) -> Widget {
    try checkWrite(id)
    return try base.setValue(value, id: id)
  }

  /// Items for refused ids are rejected in place; the rest go to the store
  /// as one batch.
  public func setValues(_ updates: [ValueSet]) -> [ValueSetRejection] {
    base.setValues(updates) { writeRefusal(for: $0.id) }
  }

  public func delete(id: String) throws(WidgetError) {
    try checkWrite(id)
    try base.delete(id: id)
  }

  public func put(_ request: WidgetPut, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try checkWrite(request.id)
    return try base.put(request, precondition: precondition)
  }

  public func update(_ request: WidgetUpdate, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try checkWrite(request.id)
    return try base.update(request, precondition: precondition)
  }

  public func delete(id: String, precondition: WritePrecondition) throws(WidgetError) {
    try checkWrite(id)
    try base.delete(id: id, precondition: precondition)
  }

  public func get(id: String) throws(WidgetError) -> Widget { try base.get(id: id) }

  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage { try base.list(query) }

  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) { base.snapshot() }

  public func changes(since revision: UInt64) -> ChangesSince { base.changes(since: revision) }

  public func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    base.whenDurable(done)
  }

  public var durabilityIfSettled: Result<Void, WidgetError>? { base.durabilityIfSettled }
}
