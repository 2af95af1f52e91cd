import GRPCTransport
import GaugeDomain

/// A service whose calls can be limited to the widgets a token reaches,
/// and whose streams of writes spend the token's write bucket item by item.
public protocol ReachLimitedService: GRPCService {
  func makeHandler(method: String, call: ServerCall, grant: AccessGrant, limiter: RateLimiter?)
    -> RPCHandler?
}
