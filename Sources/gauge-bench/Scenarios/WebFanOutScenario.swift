import GRPCClient

/// The Subscribe fan-out with the subscribers speaking gRPC-Web
/// (`grpc-web-fanout`) or Connect streaming (`connect-fanout`) instead of
/// gRPC: the same widget, connections, streams per connection and gRPC
/// producer as `FanOutScenario`, so the two differ only in what the web
/// face adds. Over HTTP/2 their events are gRPC's frames; the streams end
/// with the protocol's last frame rather than trailers.
enum WebFanOutScenario {
  static func run(
    _ callProtocol: CallProtocol, _ options: BenchOptions, loops: LoadLoops
  ) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(1, loops: loops)
    let window = MeasureWindow()
    let fleet = try SubscriberFleet.open(
      subscribers: options.subscribers, perConnection: options.perConnection,
      callProtocol: callProtocol, ids: [BenchRequests.widgetID(0)],
      on: FanOutMeasurement.subscriberLoops(loops), using: loops, window: window)
    return try FanOutMeasurement.run(
      options.scenario.rawValue, options, loops: loops, fleet: fleet, window: window)
  }
}
