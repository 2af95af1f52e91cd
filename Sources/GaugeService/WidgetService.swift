import GRPCTransport
import GaugeDomain
import GaugeWire

/// `gauge.v1.WidgetService`: protobuf in, domain calls, protobuf out. The
/// handlers run on the caller's event loop; the store is thread-safe with
/// short critical sections, so a write is applied inline and acknowledged
/// once the store says it is durable.
public struct WidgetService: ReachLimitedService {
  public let serviceName = "gauge.v1.WidgetService"
  public static let methods = [
    "PutWidget", "UpdateWidget", "GetWidget", "ListWidgets", "DeleteWidget", "PublishValues",
    "Subscribe",
  ]
  public var methodNames: [String] { Self.methods }

  private let store: any WidgetStore
  private let subscriptions: SubscriptionContext

  /// `hub` must be the store's observer, so that Subscribe sees its changes.
  public init(store: any WidgetStore, hub: ChangeHub) {
    self.store = store
    self.subscriptions = SubscriptionContext(store: store, hub: hub)
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    makeHandler(method: method, call: call, grant: .everything, limiter: nil)
  }

  /// A call that sees only the widgets within the grant's reach (a
  /// prefix-limited token's): its store refuses ids outside, and a
  /// subscription's filter is cut down to the reach. A token's
  /// PublishValues spends its write bucket value by value.
  public func makeHandler(
    method: String, call: ServerCall, grant: AccessGrant, limiter: RateLimiter?
  ) -> RPCHandler? {
    let reach = grant.reach
    let store: any WidgetStore
    if case .everything = reach {
      store = self.store
    } else {
      store = ReachLimitedWidgetStore(base: self.store, reach: reach)
    }
    switch method {
    case "PublishValues":
      var allowance: WriteAllowance?
      if let limiter, let name = grant.rateKey {
        allowance = WriteAllowance(limiter: limiter, key: name, rate: grant.writeRate)
      }
      return PublishValuesHandler(call: call, store: store, allowance: allowance)
    case "Subscribe":
      return SubscribeHandler(call: call, context: subscriptions.limited(to: reach))
    default:
      guard let unary = UnaryMethod(method) else { return nil }
      return WidgetUnaryHandler(call: call, store: store, method: unary)
    }
  }
}
