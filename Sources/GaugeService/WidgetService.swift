import GRPCTransport
import GaugeDomain
import GaugeWire

/// `gauge.v1.WidgetService`: protobuf in, domain calls, protobuf out. The
/// handlers run on the caller's event loop; the store is thread-safe with
/// short critical sections, so a write is applied inline and acknowledged
/// once the store says it is durable.
public struct WidgetService: GRPCService {
  public let serviceName = "gauge.v1.WidgetService"
  public let methodNames = [
    "PutWidget", "UpdateWidget", "GetWidget", "ListWidgets", "DeleteWidget", "PublishValues",
    "Subscribe",
  ]

  private let store: any WidgetStore
  private let subscriptions: SubscriptionContext

  /// `hub` must be the store's observer, so that Subscribe sees its changes.
  public init(store: any WidgetStore, hub: ChangeHub) {
    self.store = store
    self.subscriptions = SubscriptionContext(store: store, hub: hub)
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    switch method {
    case "PublishValues":
      return PublishValuesHandler(call: call, store: store)
    case "Subscribe":
      return SubscribeHandler(call: call, context: subscriptions)
    case "PutWidget":
      return write(call, decode: WidgetWire.decodePutWidgetRequest) {
        request throws(WidgetError) in
        let (widget, created) = try store.put(request)
        return WidgetWire.encodePutWidgetResponse(widget: widget, created: created)
      }
    case "UpdateWidget":
      return write(call, decode: WidgetWire.decodeUpdateWidgetRequest) {
        request throws(WidgetError) in
        WidgetWire.encodeWidget(try store.update(request))
      }
    case "DeleteWidget":
      return write(call, decode: WidgetWire.decodeDeleteWidgetRequest) { id throws(WidgetError) in
        try store.delete(id: id)
        return WidgetWire.encodeDeleteWidgetResponse()
      }
    case "GetWidget":
      return read(call, decode: WidgetWire.decodeGetWidgetRequest) { id throws(WidgetError) in
        WidgetWire.encodeWidget(try store.get(id: id))
      }
    case "ListWidgets":
      return read(call, decode: WidgetWire.decodeListWidgetsRequest) {
        query throws(WidgetError) in
        WidgetWire.encodeListWidgetsResponse(try store.list(query))
      }
    default:
      return nil
    }
  }

  /// A write is answered only once it is as durable as the store promises.
  private func write<Request>(
    _ call: ServerCall,
    decode: @escaping (UnsafeRawBufferPointer) throws(WireError) -> Request,
    _ body: @escaping (Request) throws(WidgetError) -> [UInt8]
  ) -> RPCHandler {
    let store = self.store
    return unary(call, decode: decode) { request, responder in
      let response: [UInt8]
      do throws(WidgetError) {
        response = try body(request)
      } catch {
        return responder.respond(.failure(error.grpcStatus))
      }
      store.whenDurable { durable in
        responder.respond(durable.map { response }.mapError(\.grpcStatus))
      }
    }
  }

  private func read<Request>(
    _ call: ServerCall,
    decode: @escaping (UnsafeRawBufferPointer) throws(WireError) -> Request,
    _ body: @escaping (Request) throws(WidgetError) -> [UInt8]
  ) -> RPCHandler {
    unary(call, decode: decode) { request, responder in
      do throws(WidgetError) {
        responder.respond(.success(try body(request)))
      } catch {
        responder.respond(.failure(error.grpcStatus))
      }
    }
  }

  private func unary<Request>(
    _ call: ServerCall,
    decode: @escaping (UnsafeRawBufferPointer) throws(WireError) -> Request,
    _ body: @escaping (Request, UnaryResponder) -> Void
  ) -> RPCHandler {
    let method = call.method
    return UnaryHandler(call: call) { bytes, responder in
      switch WireDecoding.decode(bytes, with: decode) {
      case .failure(let error):
        responder.respond(
          .failure(
            GRPCStatus(.internal, "could not parse the \(method) request: \(error.message)")))
      case .success(let request):
        body(request, responder)
      }
    }
  }
}
