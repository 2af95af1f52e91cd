import GRPCTransport
import GaugeDomain

/// A service whose calls can be limited to the widgets a token reaches.
public protocol ReachLimitedService: GRPCService {
  func makeHandler(method: String, call: ServerCall, reach: WidgetReach) -> RPCHandler?
}
