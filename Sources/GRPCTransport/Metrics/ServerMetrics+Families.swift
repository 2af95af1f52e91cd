import GRPCCore
import GaugeMetrics

extension ServerMetrics.Snapshot {
  /// The families as go-grpc-prometheus names them, and the HTTP faces'
  /// and connections' own. Series are sorted, so two scrapes list them in
  /// the same order.
  public var families: [MetricFamily] {
    let methods = methods.values.sorted { ($0.service, $0.method) < ($1.service, $1.method) }
    func labels(_ method: GRPCMethodMetrics.Snapshot) -> [MetricLabel] {
      [
        MetricLabel("grpc_type", method.type.rawValue),
        MetricLabel("grpc_service", method.service),
        MetricLabel("grpc_method", method.method),
      ]
    }
    func perMethod(_ value: (GRPCMethodMetrics.Snapshot) -> UInt64) -> [MetricSeries] {
      methods.map { MetricSeries(labels: labels($0), Double(value($0))) }
    }
    var handled: [MetricSeries] = []
    for method in methods {
      for code in GRPCStatus.Code.allCases where method.handled[Int(code.rawValue)] > 0 {
        handled.append(
          MetricSeries(
            labels: labels(method) + [MetricLabel("grpc_code", code.goName)],
            Double(method.handled[Int(code.rawValue)])))
      }
    }
    let routes = routes.sorted { ($0.face, $0.route) < ($1.face, $1.route) }
    var requests: [MetricSeries] = []
    for route in routes {
      for (code, count) in route.codes.sorted(by: { $0.key < $1.key }) {
        requests.append(
          MetricSeries(
            labels: [
              MetricLabel("face", route.face), MetricLabel("route", route.route),
              MetricLabel("code", String(code)),
            ], Double(count)))
      }
    }
    return [
      MetricFamily(
        name: "grpc_server_started_total", help: "Total number of RPCs started on the server.",
        kind: .counter, series: perMethod(\.started)),
      MetricFamily(
        name: "grpc_server_handled_total",
        help: "Total number of RPCs completed on the server, regardless of success or failure.",
        kind: .counter, series: handled),
      MetricFamily(
        name: "grpc_server_msg_received_total",
        help: "Total number of RPC stream messages received on the server.", kind: .counter,
        series: perMethod(\.received)),
      MetricFamily(
        name: "grpc_server_msg_sent_total",
        help: "Total number of gRPC stream messages sent by the server.", kind: .counter,
        series: perMethod(\.sent)),
      MetricFamily(
        name: "grpc_server_handling_seconds",
        help: "Histogram of response latency (seconds) of gRPC that had been application-level "
          + "handled by the server.", kind: .histogram,
        series: methods.map { MetricSeries(labels: labels($0), value: .histogram($0.handling)) }),
      MetricFamily(
        name: "http_requests_total",
        help: "HTTP requests answered by the HTTP faces, by face, route and status code.",
        kind: .counter, series: requests),
      MetricFamily(
        name: "http_request_duration_seconds",
        help:
          "Time from an HTTP request reaching its face to the end of its answer, by face and route.",
        kind: .histogram,
        series: routes.map {
          MetricSeries(
            labels: [MetricLabel("face", $0.face), MetricLabel("route", $0.route)],
            value: .histogram($0.duration))
        }),
      MetricFamily(
        name: "gauged_connections", help: "Open client connections, by protocol.", kind: .gauge,
        series: ["h2", "http1"].map {
          MetricSeries(labels: [MetricLabel("protocol", $0)], Double(connections[$0] ?? 0))
        }),
    ] + parts
  }
}
