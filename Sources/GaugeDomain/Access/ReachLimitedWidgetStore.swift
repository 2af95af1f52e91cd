/// A store seen through a prefix-limited token: ids outside its reach are
/// refused on every read and write (`WidgetError.outsideReach`), listings
/// and snapshots hold only the widgets inside. Made only for such tokens;
/// every other caller talks to the store itself.
public struct ReachLimitedWidgetStore: WidgetStore {
  public let base: any WidgetStore
  public let reach: WidgetReach

  public init(base: any WidgetStore, reach: WidgetReach) {
    self.base = base
    self.reach = reach
  }

  private func check(_ id: String?) throws(WidgetError) {
    guard let id, !reach.allows(id) else { return }
    throw .outsideReach(id: id, prefix: reach.prefix)
  }

  public func put(_ request: WidgetPut) throws(WidgetError) -> (widget: Widget, created: Bool) {
    try check(request.id)
    return try base.put(request)
  }

  public func update(_ request: WidgetUpdate) throws(WidgetError) -> Widget {
    try check(request.id)
    return try base.update(request)
  }

  public func update(_ request: TemplateValueUpdate) throws(WidgetError) -> Widget {
    try check(request.id)
    return try base.update(request)
  }

  public func setValue(_ value: Double, id: String) throws(WidgetError) -> Widget {
    try check(id)
    return try base.setValue(value, id: id)
  }

  /// Values outside the reach are rejected one by one; the rest go to the
  /// store as one batch.
  public func setValues(_ updates: [ValueSet]) -> [ValueSetRejection] {
    base.setValues(updates) {
      reach.allows($0.id) ? nil : .outsideReach(id: $0.id, prefix: reach.prefix)
    }
  }

  public func get(id: String) throws(WidgetError) -> Widget {
    try check(id)
    return try base.get(id: id)
  }

  /// A listing wider than the reach is cut down to it; one beside it is refused.
  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    guard let prefix = reach.narrow(prefix: query.idPrefix) else {
      throw .outsideReach(id: query.idPrefix, prefix: reach.prefix)
    }
    var narrowed = query
    narrowed.idPrefix = prefix
    return try base.list(narrowed)
  }

  public func delete(id: String) throws(WidgetError) {
    try check(id)
    try base.delete(id: id)
  }

  public func put(_ request: WidgetPut, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try check(request.id)
    return try base.put(request, precondition: precondition)
  }

  public func update(_ request: WidgetUpdate, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try check(request.id)
    return try base.update(request, precondition: precondition)
  }

  public func delete(id: String, precondition: WritePrecondition) throws(WidgetError) {
    try check(id)
    try base.delete(id: id, precondition: precondition)
  }

  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) {
    let (widgets, lastRevision) = base.snapshot()
    return (widgets.filter { reach.allows($0.id) }, lastRevision)
  }

  public func changes(since revision: UInt64) -> ChangesSince {
    switch base.changes(since: revision) {
    case .unknown: return .unknown
    case .changes(let upserts, let removals, let lastRevision):
      return .changes(
        upserts: upserts.filter { reach.allows($0.id) },
        removals: removals.filter { reach.allows($0.id) }, lastRevision: lastRevision)
    }
  }

  public func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    base.whenDurable(done)
  }

  public var durabilityIfSettled: Result<Void, WidgetError>? { base.durabilityIfSettled }
}
