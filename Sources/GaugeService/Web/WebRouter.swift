import GRPCTransport
import GaugeDomain

/// Picks the HTTP face for a request that is not a gRPC call, by path:
/// a service method's path goes to gRPC-Web and Connect; then live events,
/// the REST resources, metrics, the pages (the dashboard and its files, the
/// index); anything else is 404. Each request is counted under its face and
/// route when the loop keeps metrics.
public final class WebRouter: HTTPResponder {
  private let rpc: WebRPCFace?
  private let rest: RESTFace
  private let events: EventsFace
  private let pages: WebPages
  private let metrics: MetricsFace?
  private let gate: AccessGate
  private let login: LoginFace
  private let tokens: TokensFace?
  private let limiter: RateLimiter?

  /// `assets`: the dashboard's files, those embedded in the binary unless a
  /// test brings its own.
  public init(
    rpc: WebRPCFace? = nil, rest: RESTFace, events: EventsFace, index: IndexPage,
    assets: WebAssetCatalogue = .embedded(), metrics: MetricsFace? = nil,
    gate: AccessGate = .open(), tokens: TokensFace? = nil, limiter: RateLimiter? = nil
  ) {
    self.rpc = rpc
    self.rest = rest
    self.events = events
    self.pages = WebPages(assets: assets, index: index)
    self.metrics = metrics
    self.gate = gate
    self.login = LoginFace(gate: gate)
    self.tokens = tokens
    self.limiter = limiter
  }

  public var answersWebRPC: Bool { rpc != nil }

  /// 429 with `Retry-After` in whole seconds (at least 1).
  static func tooManyRequests(_ kind: RateLimiter.Kind, retryAfterNanoseconds: UInt64)
    -> HTTPResponse
  {
    let seconds = max(1, (retryAfterNanoseconds + 999_999_999) / 1_000_000_000)
    return ProblemDetails(
      status: 429,
      detail:
        "too many \(kind == .writes ? "writes" : "reads"); retry in \(seconds) s",
      headers: ["retry-after": "\(seconds)"]
    ).response
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    if let rpc, let target = rpc.target(path: request.path) {
      // Checked per method by the services themselves (`GuardedService`).
      let metered = MeteredExchange.wrap(
        exchange, face: WebRPCFace.faceLabel(request), route: WebRPCFace.routeLabel(target))
      return rpc.handle(request, target: target, exchange: metered)
    }
    var grant = AccessGrant.everything
    if gate.requiresTokens || limiter?.limits.anonymous == true {
      let requirement = AccessRequirement.request(method: request.method, path: request.path)
      if gate.requiresTokens {
        let memo = exchange.credentialMemo
        let authorization = request.headers.withValue(of: "authorization") { value in
          value.map {
            memo?.text(of: UnsafeRawBufferPointer($0)) ?? String(decoding: $0, as: UTF8.self)
          }
        }
        let decision = gate.check(
          requirement, authorization: authorization, cookie: request.headers["cookie"],
          memo: memo)
        switch decision {
        case .granted(let granted): grant = granted
        case .refused(let refusal):
          let metered = MeteredExchange.wrap(exchange, face: "auth", route: "refused")
          return metered.respond(refusal.problem.response)
        }
      }
      if !gate.requiresTokens, requirement == .scope(.admin) {
        // Where gauged serves unauthenticated beyond loopback.
        let metered = MeteredExchange.wrap(exchange, face: "auth", route: "refused")
        return metered.respond(AccessRefusal.tokensOffline.problem.response)
      }
      if grant.rateKey == nil, requirement != .open {
        grant = grant.spending(limiter?.anonymousKey(peer: exchange.peer))
      }
      if let limiter, let key = grant.rateKey, case .scope(let scope) = requirement,
        scope != .admin
      {
        let kind: RateLimiter.Kind = scope == .read ? .reads : .writes
        if case .refused(let wait) = limiter.take(kind, key: key, writeRate: grant.writeRate) {
          let metered = MeteredExchange.wrap(exchange, face: "auth", route: "rate limited")
          return metered.respond(Self.tooManyRequests(kind, retryAfterNanoseconds: wait))
        }
      }
    }
    if request.path == EventsFace.path {
      events.handle(
        request, exchange: MeteredExchange.wrap(exchange, face: "events", route: EventsFace.path),
        grant: grant, registry: gate.registry, limiter: limiter)
    } else if RESTFace.handles(path: request.path) {
      let route = RESTRoute(path: request.path)
      let metered = MeteredExchange.wrap(exchange, face: "rest", route: route.label)
      rest.handle(request, route: route, exchange: metered, reach: grant.reach)
    } else if let tokens, TokensFace.handles(path: request.path) {
      tokens.handle(
        request, exchange: MeteredExchange.wrap(exchange, face: "rest", route: "/tokens"))
    } else if request.path == LoginFace.path {
      login.handle(
        request, exchange: MeteredExchange.wrap(exchange, face: "login", route: LoginFace.path))
    } else if let metrics, request.path == MetricsFace.path {
      metrics.handle(
        request, exchange: MeteredExchange.wrap(exchange, face: "metrics", route: MetricsFace.path))
    } else if WebPages.serves(path: request.path) {
      pages.handle(
        request,
        exchange: MeteredExchange.wrap(
          exchange, face: "pages", route: WebPages.routeLabel(path: request.path)))
    } else {
      let exchange = MeteredExchange.wrap(exchange, face: "none", route: "unknown path")
      exchange.respond(
        ProblemDetails(
          status: 404,
          detail: "nothing is served at \(request.path); see / for what is"
        ).response)
    }
  }
}
