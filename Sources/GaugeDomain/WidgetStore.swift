/// A change that took a revision. Subscribers and durable stores consume these.
public enum WidgetChange: Sendable, Equatable {
  case upserted(Widget, created: Bool)
  /// A change that set nothing but an existing widget's value (and with it
  /// its update time, and a stale widget's staleness): PublishValues, or an
  /// update that sets only the template's value. Persisted as a value, and
  /// sent as one to subscribers that ask for value deltas.
  case valueSet(Widget)
  case removed(id: String, revision: UInt64)

  public var revision: UInt64 {
    switch self {
    case .upserted(let widget, _), .valueSet(let widget): widget.revision
    case .removed(_, let revision): revision
    }
  }

  public var widgetID: String {
    switch self {
    case .upserted(let widget, _), .valueSet(let widget): widget.id
    case .removed(let id, _): id
    }
  }

  /// The widget as the change left it; nil for a removal.
  public var widget: Widget? {
    switch self {
    case .upserted(let widget, _), .valueSet(let widget): widget
    case .removed: nil
    }
  }
}

public struct WidgetPage: Sendable, Equatable {
  public var widgets: [Widget]
  /// Empty on the last page.
  public var nextPageToken: String

  public init(widgets: [Widget], nextPageToken: String) {
    self.widgets = widgets
    self.nextPageToken = nextPageToken
  }
}

public struct ListQuery: Sendable, Equatable {
  public var idPrefix: String
  /// 0 means the default (100); larger than 1000 is lowered to 1000; negative is invalid.
  public var pageSize: Int32
  public var pageToken: String

  public init(idPrefix: String = "", pageSize: Int32 = 0, pageToken: String = "") {
    self.idPrefix = idPrefix
    self.pageSize = pageSize
    self.pageToken = pageToken
  }
}

/// Where widgets live. Every implementation validates through the domain,
/// takes one server-wide revision per accepted change, and applies a change
/// whole or not at all. Writes return once applied in memory; a caller
/// acknowledges them only after `whenDurable` says so. Safe to call from any
/// thread.
public protocol WidgetStore: Sendable {
  func put(_ request: WidgetPut) throws(WidgetError) -> (widget: Widget, created: Bool)
  func update(_ request: WidgetUpdate) throws(WidgetError) -> Widget
  /// `update(request.widgetUpdate)`, for stores that can do it cheaper.
  func update(_ request: TemplateValueUpdate) throws(WidgetError) -> Widget
  /// Sets the main value of an existing widget, whatever its template.
  func setValue(_ value: Double, id: String) throws(WidgetError) -> Widget
  /// `setValue` for each item, in order, each accepted or rejected on its
  /// own; returns the rejected ones. A producer's burst pays for the
  /// store's lock and clock once.
  func setValues(_ updates: [ValueSet]) -> [ValueSetRejection]
  func get(id: String) throws(WidgetError) -> Widget
  func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage
  func delete(id: String) throws(WidgetError)
  /// `put`, applied only when `precondition` holds for `request.id`, checked
  /// atomically with the write.
  func put(_ request: WidgetPut, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  /// `update` under `precondition`; also tells whether it created the widget.
  func update(_ request: WidgetUpdate, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  /// `delete` under `precondition`.
  func delete(id: String, precondition: WritePrecondition) throws(WidgetError)
  /// Every widget in id order and the revision they are consistent with.
  func snapshot() -> (widgets: [Widget], lastRevision: UInt64)
  func changes(since revision: UInt64) -> ChangesSince
  /// Calls `done` (at once, or later on any thread) when every write applied
  /// before this call is durable, or with the error that kept it from disk.
  func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void)
  /// What `whenDurable` would answer now, when it would answer at once;
  /// nil when the answer has to wait (a commit in strict mode). Lets the
  /// unary path acknowledge without building a callback.
  var durabilityIfSettled: Result<Void, WidgetError>? { get }
}

extension WidgetStore {
  public var durabilityIfSettled: Result<Void, WidgetError>? { nil }

  public func update(_ request: TemplateValueUpdate) throws(WidgetError) -> Widget {
    try update(request.widgetUpdate)
  }
}
