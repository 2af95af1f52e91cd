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
  private let limited: (any ReachLimitedService)?
  private let gate: AccessGate
  private let limiter: RateLimiter?
  private let methods: [String: MethodAccess]
  private let anonymousLimits: Bool

  public init(_ base: any GRPCService, gate: AccessGate, limiter: RateLimiter? = nil) {
    self.base = base
    self.limited = base as? any ReachLimitedService
    self.gate = gate
    self.limiter = limiter
    var methods: [String: MethodAccess] = [:]
    for method in base.methodNames {
      methods[method] = Self.access(service: base.serviceName, method: method)
    }
    self.methods = methods
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
    let access = methods[method] ?? Self.access(service: base.serviceName, method: method)
    // Keys are stored lower case: compared as they are, where the
    // subscript lower-cased its key on every call.
    var authorization: String?
    var cookie: String?
    for (key, value) in call.metadata {
      guard case .text(let text) = value else { continue }
      if authorization == nil, key == "authorization" {
        authorization = text
      } else if cookie == nil, key == "cookie" {
        cookie = text
      }
    }
    let decision = gate.check(
      access.requirement, authorization: authorization, cookie: cookie)
    switch decision {
    case .refused(let refusal):
      return RefusedCallHandler(call: call, status: refusal.grpcStatus)
    case .granted(var grant):
      if !gate.requiresTokens, access.requirement == .scope(.admin) {
        // Reached only where callers without a token are limited, that is
        // where gauged serves unauthenticated beyond loopback.
        return RefusedCallHandler(call: call, status: AccessRefusal.tokensOffline.grpcStatus)
      }
      if grant.rateKey == nil, access.requirement != .open {
        grant.rateKey = limiter?.anonymousKey(peer: call.peer)
      }
      guard let key = grant.rateKey else {
        return limited?.makeHandler(method: method, call: call, grant: grant, limiter: nil)
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
        limited?.makeHandler(method: method, call: call, grant: grant, limiter: limiter)
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
