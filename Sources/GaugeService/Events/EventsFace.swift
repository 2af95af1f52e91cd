import GRPCTransport
import GaugeAuth
import GaugeDomain

/// `GET /widgets/events`: live widgets as Server-Sent Events, for browsers'
/// `EventSource`. Query: `ids=a,b` (or repeated), `prefix=`,
/// `min_interval_ms=`, `deltas=1` (value-only changes as `event: value`);
/// `Last-Event-ID` (or `since_revision=`) resumes.
public final class EventsFace: HTTPResponder {
  public static let path = "/widgets/events"
  private let context: SubscriptionContext

  /// `hub` must be the store's observer, as for `WidgetService`.
  public init(store: any WidgetStore, hub: ChangeHub) {
    self.context = SubscriptionContext(store: store, hub: hub)
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    handle(request, exchange: exchange, grant: .everything, registry: nil, limiter: nil)
  }

  /// A request granted `grant`: a prefix-limited token's filter is cut down
  /// to its prefix (listing ids outside is refused, 403), and the stream
  /// ends when its token is revoked from `registry`; it counts among the
  /// token's subscriptions in `limiter`.
  public func handle(
    _ request: HTTPRequest, exchange: any HTTPExchange, grant: AccessGrant,
    registry: TokenRegistry?, limiter: RateLimiter?
  ) {
    let reach = grant.reach
    guard request.method == "GET" || request.method == "HEAD" else {
      return exchange.respond(
        ProblemDetails.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]).response)
    }
    guard RESTMediaType.accepts(request.headers["accept"], "text/event-stream") else {
      return exchange.respond(
        ProblemDetails(
          status: 406, detail: "this resource is text/event-stream, which Accept excludes"
        ).response)
    }
    var query: EventsQuery
    switch EventsQuery.parse(request) {
    case .success(let parsed): query = parsed
    case .failure(let problem): return exchange.respond(problem.response)
    }
    switch reach.narrow(query.filter) {
    case .success(let narrowed): query.filter = narrowed
    case .failure(let error):
      return exchange.respond(ProblemDetails(status: 403, detail: error.message).response)
    }
    guard request.method == "GET" else {
      // HEAD: the stream's head, and no stream.
      exchange.startStream(status: 200, headers: ServerSentEventStream.responseHeaders)
      return exchange.finish()
    }
    var slot: SubscriptionSlot?
    if let limiter, let name = grant.rateKey {
      slot = limiter.openSubscription(key: name)
      guard slot != nil else {
        return exchange.respond(
          ProblemDetails(status: 429, detail: limiter.tooManySubscriptions).response)
      }
    }
    let stream = ServerSentEventStream(
      exchange: exchange, context: context.limited(to: reach), filter: query.filter)
    stream.subscriptionSlot = slot
    stream.start(
      sinceRevision: query.sinceRevision, minIntervalMs: query.minIntervalMs,
      valueDeltas: query.valueDeltas)
    if let registry, let name = grant.tokenName {
      let end = LoopBound<() -> Void> { [weak stream] in stream?.end() }
      stream.revocationWatch = RevocationWatch(
        registry: registry, name: name, executor: exchange.scheduler.loopExecutor, end: end)
      if stream.revocationWatch == nil { stream.end() }
    }
  }
}

/// What an events request asks for, every problem with it named.
struct EventsQuery {
  var filter: WidgetFilter
  var sinceRevision: UInt64?
  var minIntervalMs: Int64
  /// `deltas=1`: value-only changes come as `event: value`.
  var valueDeltas = false

  static func parse(_ request: HTTPRequest) -> Result<EventsQuery, ProblemDetails> {
    var errors: [ProblemDetails.FieldError] = []
    var ids: [String] = []
    var prefix = ""
    var minIntervalMs: Int64 = 0
    var since: UInt64?
    var deltas = false
    for (name, value) in request.queryItems {
      switch name {
      case "ids", "id":
        ids += value.split(separator: ",").map(String.init)
      case "prefix":
        prefix = value
      case "min_interval_ms":
        guard let number = Int64(value), number >= 0 else {
          errors.append(.init(field: name, detail: "\"\(value)\" is not a whole number ≥ 0"))
          continue
        }
        minIntervalMs = number
      case "since_revision":
        guard let number = UInt64(value) else {
          errors.append(.init(field: name, detail: "\"\(value)\" is not a revision"))
          continue
        }
        since = number
      case "deltas":
        switch value {
        case "1", "true": deltas = true
        case "0", "false": deltas = false
        default:
          errors.append(.init(field: name, detail: "\"\(value)\" is not 1, 0, true or false"))
        }
      default:
        errors.append(
          .init(
            field: name,
            detail:
              "is not a parameter here (ids, prefix, min_interval_ms, since_revision, deltas)"))
      }
    }
    if let lastEventID = request.headers["last-event-id"], !lastEventID.isEmpty {
      // An EventSource sends back the last id it saw; ours are revisions.
      if let number = UInt64(lastEventID) {
        since = number
      } else {
        errors.append(.init(field: "Last-Event-ID", detail: "\"\(lastEventID)\" is not a revision"))
      }
    }
    let filter = WidgetFilter(ids: ids, idPrefix: prefix)
    for violation in filter.violations() {
      let field = violation.field.replacingPrefix("id_prefix", with: "prefix")
      errors.append(.init(field: field, detail: violation.description))
    }
    guard errors.isEmpty else {
      let summary = errors.map { "\($0.field): \($0.detail)" }.joined(separator: "; ")
      return .failure(ProblemDetails(status: 422, detail: summary, errors: errors))
    }
    return .success(
      EventsQuery(
        filter: filter, sinceRevision: since, minIntervalMs: minIntervalMs, valueDeltas: deltas))
  }
}

extension String {
  fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}
