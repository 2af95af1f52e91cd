import GRPCCore
import GRPCTransport
import GaugeDomain

/// A service behind the access gate: each call's `authorization` metadata
/// (or a login cookie) is checked against what its method needs
/// (`AccessRequirement`) before the service makes a handler. The same
/// wrapper serves gRPC, gRPC-Web and Connect, which share the services.
public struct GuardedService: GRPCService {
  /// What a method's calls need and spend, worked out once per method:
  /// a call looks up one entry.
  struct MethodAccess {
    var requirement: AccessRequirement
    /// The bucket a call spends when it starts; nil for none
    /// (PublishValues spends per value, in its handler; tokens, none).
    var rateKind: RateLimiter.Kind?
    /// Calls that stay open (Subscribe): they end when their token is
    /// revoked and count against the token's subscriptions.
    var longLived: Bool
  }

  private let base: any GRPCService
  /// The base's handler maker that takes a grant, when it has one. A
  /// closure: calling through the stored existential copied it each call.
  private let makeLimitedHandler:
    (@Sendable (String, ServerCall, AccessGrant, RateLimiter?) -> RPCHandler?)?
  private let gate: AccessGate
  private let limiter: RateLimiter?
  /// By method name: a few short names, where a scan comparing small
  /// strings costs less than hashing one.
  private let methods: [(name: String, access: MethodAccess)]
  private let anonymousLimits: Bool

  public init(_ base: any GRPCService, gate: AccessGate, limiter: RateLimiter? = nil) {
    self.base = base
    if let limited = base as? any ReachLimitedService {
      makeLimitedHandler = { limited.makeHandler(method: $0, call: $1, grant: $2, limiter: $3) }
    } else {
      makeLimitedHandler = nil
    }
    self.gate = gate
    self.limiter = limiter
    self.methods = base.methodNames.map { method in
      (method, Self.access(service: base.serviceName, method: method))
    }
    self.anonymousLimits = limiter?.limits.anonymous ?? false
  }

  static func access(service: String, method: String) -> MethodAccess {
    let requirement = AccessRequirement.call(service: service, method: method)
    var rateKind: RateLimiter.Kind?
    if method != "PublishValues", service != "gauge.v1.TokenService",
      case .scope(let scope) = requirement
    {
      rateKind = scope == .read ? .reads : .writes
    }
    return MethodAccess(
      requirement: requirement, rateKind: rateKind,
      longLived: service == "gauge.v1.WidgetService" && method == "Subscribe")
  }

  public var serviceName: String { base.serviceName }
  public var methodNames: [String] { base.methodNames }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    // Without tokens the call goes straight on: one atomic load (and one
    // flag, set where callers without a token are limited by address).
    guard gate.requiresTokens || anonymousLimits else {
      return base.makeHandler(method: method, call: call)
    }
    let access =
      methods.first { $0.name == method }?.access
      ?? Self.access(service: base.serviceName, method: method)
    // Keys are stored lower case: compared as they are, where the
    // subscript lower-cased its key on every call. The cookie is only for
    // callers without an `authorization`.
    let authorization = call.metadata.firstText(lowercaseKey: "authorization")
    let cookie = authorization == nil ? call.metadata.firstText(lowercaseKey: "cookie") : nil
    let decision = gate.check(
      access.requirement, authorization: authorization, cookie: cookie,
      memo: call.credentialMemo)
    switch decision {
    case .refused(let refusal):
      return RefusedCallHandler(call: call, status: refusal.grpcStatus)
    case .granted(let granted):
      var grant = granted
      if !gate.requiresTokens, access.requirement == .scope(.admin) {
        // Reached only where callers without a token are limited, that is
        // where gauged serves unauthenticated beyond loopback.
        return RefusedCallHandler(call: call, status: AccessRefusal.tokensOffline.grpcStatus)
      }
      if grant.rateKey == nil, access.requirement != .open {
        grant = grant.spending(limiter?.anonymousKey(peer: call.peer))
      }
      guard let key = grant.rateKey else {
        return makeLimitedHandler?(method, call, grant, nil)
          ?? base.makeHandler(method: method, call: call)
      }
      if let limiter, let kind = access.rateKind,
        case .refused(let wait) = limiter.take(kind, key: key, writeRate: grant.writeRate)
      {
        return RefusedCallHandler(
          call: call, status: RateLimiter.exhausted(kind, retryAfterNanoseconds: wait))
      }
      var slot: SubscriptionSlot?
      if access.longLived, let limiter {
        slot = limiter.openSubscription(key: key)
        if slot == nil {
          return RefusedCallHandler(
            call: call, status: GRPCStatus(.resourceExhausted, limiter.tooManySubscriptions))
        }
      }
      let handler =
        makeLimitedHandler?(method, call, grant, limiter)
        ?? base.makeHandler(method: method, call: call)
      guard let handler, access.longLived else { return handler }
      return RevocableHandler(
        handler, call: call, registry: gate.registry, tokenName: grant.tokenName, slot: slot)
    }
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
