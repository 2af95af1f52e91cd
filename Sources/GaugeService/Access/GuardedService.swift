import GRPCCore
import GRPCTransport
import GaugeDomain

/// A service behind the access gate: each call's `authorization` metadata
/// (or a login cookie) is checked against what its method needs
/// (`AccessRequirement`) before the service makes a handler. The same
/// wrapper serves gRPC, gRPC-Web and Connect, which share the services.
public struct GuardedService: GRPCService {
  private let base: any GRPCService
  private let limited: (any ReachLimitedService)?
  private let gate: AccessGate
  /// Looked up once per method rather than per call.
  private let requirements: [String: AccessRequirement]
  /// Methods whose calls stay open (server streams): they end when their
  /// token is revoked.
  private let longLived: Set<String>
  private let limiter: RateLimiter?
  /// The bucket each method's call spends at its start; methods absent
  /// spend none (PublishValues spends per value, in its handler).
  private let rateKinds: [String: RateLimiter.Kind]

  public init(_ base: any GRPCService, gate: AccessGate, limiter: RateLimiter? = nil) {
    self.base = base
    self.limited = base as? any ReachLimitedService
    self.gate = gate
    var requirements: [String: AccessRequirement] = [:]
    for method in base.methodNames {
      requirements[method] = .call(service: base.serviceName, method: method)
    }
    self.requirements = requirements
    self.longLived = base.serviceName == "gauge.v1.WidgetService" ? ["Subscribe"] : []
    self.limiter = limiter
    var rateKinds: [String: RateLimiter.Kind] = [:]
    for method in base.methodNames {
      guard method != "PublishValues", base.serviceName != "gauge.v1.TokenService",
        case .scope(let scope) = AccessRequirement.call(service: base.serviceName, method: method)
      else { continue }
      rateKinds[method] = scope == .read ? .reads : .writes
    }
    self.rateKinds = rateKinds
  }

  public var serviceName: String { base.serviceName }
  public var methodNames: [String] { base.methodNames }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    // Without tokens the call goes straight on: one atomic load.
    guard gate.requiresTokens else { return base.makeHandler(method: method, call: call) }
    let requirement =
      requirements[method] ?? .call(service: base.serviceName, method: method)
    let decision = gate.check(
      requirement, authorization: Self.text(call.metadata["authorization"]),
      cookie: Self.text(call.metadata["cookie"]))
    switch decision {
    case .refused(let refusal):
      return RefusedCallHandler(call: call, status: refusal.grpcStatus)
    case .granted(let grant):
      if let limiter, let name = grant.tokenName, let kind = rateKinds[method],
        case .refused(let wait) = limiter.take(kind, key: name)
      {
        return RefusedCallHandler(
          call: call, status: RateLimiter.exhausted(kind, retryAfterNanoseconds: wait))
      }
      var slot: SubscriptionSlot?
      if let limiter, let name = grant.tokenName, longLived.contains(method) {
        slot = limiter.openSubscription(key: name)
        if slot == nil {
          return RefusedCallHandler(
            call: call, status: GRPCStatus(.resourceExhausted, limiter.tooManySubscriptions))
        }
      }
      let handler =
        limited.map {
          $0.makeHandler(method: method, call: call, grant: grant, limiter: limiter)
        } ?? base.makeHandler(method: method, call: call)
      guard let handler, let name = grant.tokenName, longLived.contains(method) else {
        return handler
      }
      return RevocableHandler(
        handler, call: call, registry: gate.registry, tokenName: name, slot: slot)
    }
  }

  private static func text(_ value: Metadata.Value?) -> String? {
    guard case .text(let text)? = value else { return nil }
    return text
  }
}

/// The handler of a refused call: its status goes out at once, and
/// whatever the client still sends is dropped.
final class RefusedCallHandler: RPCHandler {
  init(call: ServerCall, status: GRPCStatus) {
    call.finish(status)
  }

  func receive(message: [UInt8]) {}
  func receiveEnd() {}
  func cancel(_ reason: GRPCStatus) {}
}
