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
      return WidgetUnaryHandler(
        call: call, store: store, isWrite: true, decode: WidgetWire.decodePutWidgetRequest
      ) { store, request throws(WidgetError) in
        let (widget, created) = try store.put(request)
        return WidgetWire.encodePutWidgetResponse(widget: widget, created: created)
      }
    case "UpdateWidget":
      return WidgetUnaryHandler(
        call: call, store: store, isWrite: true, decode: WidgetWire.decodeUpdateWidgetRequest
      ) { store, request throws(WidgetError) in
        WidgetWire.encodeWidget(try store.update(request))
      }
    case "DeleteWidget":
      return WidgetUnaryHandler(
        call: call, store: store, isWrite: true, decode: WidgetWire.decodeDeleteWidgetRequest
      ) { store, id throws(WidgetError) in
        try store.delete(id: id)
        return WidgetWire.encodeDeleteWidgetResponse()
      }
    case "GetWidget":
      return WidgetUnaryHandler(
        call: call, store: store, isWrite: false, decode: WidgetWire.decodeGetWidgetRequest
      ) { store, id throws(WidgetError) in
        WidgetWire.encodeWidget(try store.get(id: id))
      }
    case "ListWidgets":
      return WidgetUnaryHandler(
        call: call, store: store, isWrite: false, decode: WidgetWire.decodeListWidgetsRequest
      ) { store, query throws(WidgetError) in
        WidgetWire.encodeListWidgetsResponse(try store.list(query))
      }
    default:
      return nil
    }
  }
}
