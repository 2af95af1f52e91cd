import GRPCTransport
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

  /// The large requests are boxed so that the value-only update, the one
  /// producers send at rate, moves as 32 bytes rather than 280: a request
  /// is moved several times between decoding and the store.
  enum Request {
    indirect case put(WidgetPut)
    indirect case update(WidgetUpdate)
    case updateValue(TemplateValueUpdate)
    case id(String)
    indirect case list(ListQuery)
  }

  func decode(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> Request {
    switch self {
    case .put: .put(try WidgetWire.decodePutWidgetRequest(bytes))
    case .update:
      switch try WidgetWire.decodeUpdateWidgetCall(bytes) {
      case .templateValue(let update): .updateValue(update)
      case .patch(let update): .update(update)
      }
    case .get: .id(try WidgetWire.decodeGetWidgetRequest(bytes))
    case .delete: .id(try WidgetWire.decodeDeleteWidgetRequest(bytes))
    case .list: .list(try WidgetWire.decodeListWidgetsRequest(bytes))
    }
  }

  /// What a call answers: a widget is encoded when it is sent, straight
  /// into the stream's buffer; other answers are encoded here.
  enum Response {
    case widget(Widget)
    case encoded([UInt8])

    func send(on call: ServerCall) {
      switch self {
      case .widget(let widget):
        WidgetWire.encodeWidget(widget) { size, pack in
          call.send(messageOfSize: size, writingWith: pack)
        }
      case .encoded(let bytes):
        call.send(message: bytes)
      }
    }
  }

  /// `request` is what `decode` made of this method's bytes.
  func perform(_ request: Request, on store: any WidgetStore) throws(WidgetError) -> Response {
    switch request {
    case .put(let put):
      let (widget, created) = try store.put(put)
      return .encoded(WidgetWire.encodePutWidgetResponse(widget: widget, created: created))
    case .update(let update):
      return .widget(try store.update(update))
    case .updateValue(let update):
      return .widget(try store.update(update))
    case .id(let id) where self == .delete:
      try store.delete(id: id)
      return .encoded(WidgetWire.encodeDeleteWidgetResponse())
    case .id(let id):
      return .widget(try store.get(id: id))
    case .list(let query):
      return .encoded(WidgetWire.encodeListWidgetsResponse(try store.list(query)))
    }
  }
}
