import GRPCTransport
import GaugeDomain
import GaugeJSON

/// The REST/JSON face of the widget store: `/widgets`, `/widgets/{id}` and
/// `/values` (`/widgets/events` belongs to the Server-Sent Events face).
/// Writes are answered once the store says they are durable; every error
/// is an RFC 9457 problem, and nothing is ever half-applied.
public final class RESTFace: HTTPResponder {
  let store: any WidgetStore

  public init(store: any WidgetStore) {
    self.store = store
  }

  /// True for the paths this face answers, for the session's router.
  public static func handles(path: String) -> Bool {
    path == "/widgets" || path == "/values"
      || (path.hasPrefix("/widgets/") && path != RESTRoute.eventsPath)
  }

  /// A request whose token sees only the widgets within `reach`: answered
  /// by a face over the store as that token sees it.
  /// `route` is the request path's, read once by the router (which
  /// labels the request's metrics with it).
  func handle(
    _ request: HTTPRequest, route: RESTRoute, exchange: any HTTPExchange, reach: WidgetReach
  ) {
    guard case .everything = reach else {
      return RESTFace(store: ReachLimitedWidgetStore(base: store, reach: reach))
        .handle(request, route: route, exchange: exchange)
    }
    handle(request, route: route, exchange: exchange)
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    handle(request, route: RESTRoute(path: request.path), exchange: exchange)
  }

  private func handle(_ request: HTTPRequest, route: RESTRoute, exchange: any HTTPExchange) {
    let outcome: RESTOutcome
    do throws(RESTProblem) {
      outcome = try answer(request, route: route)
    } catch {
      if let refusal = error.refusal, request.method != "GET", request.method != "HEAD" {
        WriteMetrics.on(exchange.metrics)?.rejected(refusal)
      }
      return exchange.respond(error.details.response)
    }
    switch outcome {
    case .now(let response):
      exchange.respond(response)
    case .whenDurable(let response):
      if let settled = store.durabilityIfSettled {
        switch settled {
        case .success: exchange.respond(response)
        case .failure(let error): exchange.respond(RESTProblem(503, error.message).details.response)
        }
        return
      }
      let pending = RESTPendingAnswer(response, exchange: exchange)
      store.whenDurable { pending.settle($0) }
    }
  }

  func answer(_ request: HTTPRequest) throws(RESTProblem) -> RESTOutcome {
    try answer(request, route: RESTRoute(path: request.path))
  }

  func answer(_ request: HTTPRequest, route: RESTRoute) throws(RESTProblem) -> RESTOutcome {
    guard route != .unknown else {
      throw RESTProblem(404, "no resource at \(request.path)")
    }
    let allowed = route.allowedMethods
    guard allowed.contains(request.method) else {
      throw RESTProblem(
        405, "\(request.method) is not allowed here; allowed: \(allowed.joined(separator: ", "))",
        headers: ["allow": allowed.joined(separator: ", ")])
    }
    if request.method == "OPTIONS" {
      return .now(HTTPResponse(status: 204, headers: ["allow": allowed.joined(separator: ", ")]))
    }
    guard RESTMediaType.acceptsJSON(request.headers["accept"]) else {
      throw RESTProblem(406, "responses are application/json, which Accept excludes")
    }
    switch (route, request.method) {
    case (.widgets, "GET"), (.widgets, "HEAD"): return try list(request)
    case (.widgets, "POST"): return try create(request)
    case (.widget(let id), "GET"), (.widget(let id), "HEAD"): return try get(id: id)
    case (.widget(let id), "PUT"), (.widget(let id), "PATCH"):
      if let dry = try dryRun(request, id: id) { return dry }
      return request.method == "PUT" ? try replace(id: id, request) : try patch(id: id, request)
    case (.widget(let id), "DELETE"): return try delete(id: id, request)
    case (.values, "POST"): return try setValues(request)
    default: throw RESTProblem(405, "\(request.method) is not allowed here")
    }
  }
}

/// What a route decided: answer at once, or once the write is durable.
enum RESTOutcome {
  case now(HTTPResponse)
  case whenDurable(HTTPResponse)
}
