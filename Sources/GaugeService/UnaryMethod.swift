import GaugeDomain
import GaugeWire

/// The unary methods of `WidgetService`: how each decodes its request and
/// what it asks of the store. An enum rather than closures or a generic
/// handler, so a call allocates nothing for it and runs specialized code
/// (a generic handler class looked its metadata up on every call).
enum UnaryMethod {
  case put, update, get, list, delete

  init?(_ name: String) {
    switch name {
    case "PutWidget": self = .put
    case "UpdateWidget": self = .update
    case "GetWidget": self = .get
    case "ListWidgets": self = .list
    case "DeleteWidget": self = .delete
    default: return nil
    }
  }

  /// A write is acknowledged only once it is as durable as the store promises.
  var isWrite: Bool {
    switch self {
    case .put, .update, .delete: true
    case .get, .list: false
    }
  }

  enum Request {
    case put(WidgetPut)
    case update(WidgetUpdate)
    case id(String)
    case list(ListQuery)
  }

  func decode(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> Request {
    switch self {
    case .put: .put(try WidgetWire.decodePutWidgetRequest(bytes))
    case .update: .update(try WidgetWire.decodeUpdateWidgetRequest(bytes))
    case .get: .id(try WidgetWire.decodeGetWidgetRequest(bytes))
    case .delete: .id(try WidgetWire.decodeDeleteWidgetRequest(bytes))
    case .list: .list(try WidgetWire.decodeListWidgetsRequest(bytes))
    }
  }

  /// The encoded response. `request` is what `decode` made of this
  /// method's bytes.
  func perform(_ request: Request, on store: any WidgetStore) throws(WidgetError) -> [UInt8] {
    switch request {
    case .put(let put):
      let (widget, created) = try store.put(put)
      return WidgetWire.encodePutWidgetResponse(widget: widget, created: created)
    case .update(let update):
      return WidgetWire.encodeWidget(try store.update(update))
    case .id(let id) where self == .delete:
      try store.delete(id: id)
      return WidgetWire.encodeDeleteWidgetResponse()
    case .id(let id):
      return WidgetWire.encodeWidget(try store.get(id: id))
    case .list(let query):
      return WidgetWire.encodeListWidgetsResponse(try store.list(query))
    }
  }
}
