import GRPCCore
import GRPCTransport
import GaugeMetrics

/// `GET /metrics`: every loop's counters added up, the process collector's
/// figures and gauged's own, in Prometheus' text format or OpenMetrics as
/// the scraper's `Accept` asks. Also the whole responder of
/// `--metrics-listen`, where nothing else is served.
public final class MetricsFace: HTTPResponder {
  public static let path = "/metrics"

  private let server: ServerMetrics
  private let gauges: @Sendable () -> [MetricFamily]

  /// `gauges` gives the families read at scrape time from elsewhere (the
  /// store); it runs on a loop thread and must not block for long.
  public init(server: ServerMetrics, gauges: @escaping @Sendable () -> [MetricFamily] = { [] }) {
    self.server = server
    self.gauges = gauges
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    guard request.path == Self.path else {
      return exchange.respond(
        ProblemDetails(status: 404, detail: "only \(Self.path) is served here").response)
    }
    guard request.method == "GET" || request.method == "HEAD" else {
      return exchange.respond(
        ProblemDetails.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]).response)
    }
    let format = ExpositionFormat.negotiate(accept: request.headers["accept"])
    let answer = MetricsPendingAnswer(exchange)
    let gauges = self.gauges
    server.collect { snapshot in
      let families =
        (snapshot.families + gauges() + ProcessMetrics.families()).merged(
          with: SubscriptionMetrics.empty + WriteMetrics.empty)
      answer.respond(
        HTTPResponse(
          status: 200, contentType: format.contentType,
          body: ExpositionWriter(format: format).write(families)))
    }
  }
}
