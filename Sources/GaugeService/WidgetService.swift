import GRPCTransport
import GaugeDomain
import GaugeWire

/// `gauge.v1.WidgetService`: protobuf in, domain calls, protobuf out. The
/// handlers run on the caller's event loop; the store is thread-safe and its
/// critical sections are short, so unary calls complete inline.
public struct WidgetService: GRPCService {
  public let serviceName = "gauge.v1.WidgetService"
  public let methodNames = [
    "PutWidget", "UpdateWidget", "GetWidget", "ListWidgets", "DeleteWidget",
  ]

  private let store: any WidgetStore

  public init(store: any WidgetStore) {
    self.store = store
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    switch method {
    case "PutWidget":
      return unary(call, decode: WidgetWire.decodePutWidgetRequest) { request throws(WidgetError) in
        let (widget, created) = try store.put(request)
        return WidgetWire.encodePutWidgetResponse(widget: widget, created: created)
      }
    case "UpdateWidget":
      return unary(call, decode: WidgetWire.decodeUpdateWidgetRequest) {
        request throws(WidgetError) in
        WidgetWire.encodeWidget(try store.update(request))
      }
    case "GetWidget":
      return unary(call, decode: WidgetWire.decodeGetWidgetRequest) { id throws(WidgetError) in
        WidgetWire.encodeWidget(try store.get(id: id))
      }
    case "ListWidgets":
      return unary(call, decode: WidgetWire.decodeListWidgetsRequest) {
        query throws(WidgetError) in
        WidgetWire.encodeListWidgetsResponse(try store.list(query))
      }
    case "DeleteWidget":
      return unary(call, decode: WidgetWire.decodeDeleteWidgetRequest) { id throws(WidgetError) in
        try store.delete(id: id)
        return WidgetWire.encodeDeleteWidgetResponse()
      }
    default:
      return nil
    }
  }

  /// Decode, run, encode; every failure becomes the status a stock client
  /// expects.
  private func unary<Request>(
    _ call: ServerCall,
    decode: @escaping (UnsafeRawBufferPointer) throws(WireError) -> Request,
    _ body: @escaping (Request) throws(WidgetError) -> [UInt8]
  ) -> RPCHandler {
    let method = call.method
    return UnaryHandler(call: call) { bytes, _ in
      let decoded: Result<Request, WireError> = bytes.withUnsafeBytes { raw in
        Result { () throws(WireError) in try decode(raw) }
      }
      switch decoded {
      case .failure(let error):
        return .failure(
          GRPCStatus(.internal, "could not parse the \(method) request: \(error.message)"))
      case .success(let request):
        do throws(WidgetError) {
          return .success(try body(request))
        } catch {
          return .failure(error.grpcStatus)
        }
      }
    }
  }
}
