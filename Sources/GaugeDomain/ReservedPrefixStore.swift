/// The store as clients see it when the server keeps widgets of its own
/// under `prefix`: reads pass through, so those widgets are ordinary to
/// readers, and every write to an id under the prefix is refused with
/// `.readOnly` before the store sees it. The server writes its widgets
/// through the store it wraps.
public struct ReservedPrefixStore: WidgetStore {
  public let base: any WidgetStore
  public let prefix: String

  /// The prefix's first byte; nil when the prefix is empty.
  private let firstByte: UInt8?

  public init(_ base: any WidgetStore, prefix: String) {
    self.base = base
    self.prefix = prefix
    self.firstByte = prefix.utf8.first
  }

  private func isReserved(_ id: String?) -> Bool {
    guard let id else { return false }
    guard let firstByte else { return true }
    // Checked for every value a producer publishes: most ids differ at
    // their first byte, and the generic comparison of the views cost more
    // than applying the value.
    guard id.utf8.first == firstByte else { return false }
    return id.utf8.starts(with: prefix.utf8)
  }

  private func check(_ id: String?) throws(WidgetError) {
    if let id, isReserved(id) { throw .readOnly(id: id, prefix: prefix) }
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

  /// Items for reserved ids are rejected in place; the rest go to the store
  /// as one batch.
  public func setValues(_ updates: [ValueSet]) -> [ValueSetRejection] {
    base.setValues(updates) { isReserved($0.id) ? .readOnly(id: $0.id, prefix: prefix) : nil }
  }

  public func get(id: String) throws(WidgetError) -> Widget { try base.get(id: id) }

  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage { try base.list(query) }

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

  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) { base.snapshot() }

  public func changes(since revision: UInt64) -> ChangesSince { base.changes(since: revision) }

  public func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    base.whenDurable(done)
  }

  public var durabilityIfSettled: Result<Void, WidgetError>? { base.durabilityIfSettled }
}
