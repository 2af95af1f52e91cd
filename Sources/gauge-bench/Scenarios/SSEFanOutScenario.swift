/// The fan-out over Server-Sent Events: one widget and `subscribers`
/// HTTP/1.1 connections each reading `GET /widgets/events` for it, fed by
/// the same gRPC producer as the Subscribe fan-out (`FanOutMeasurement`).
enum SSEFanOutScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(1, loops: loops)
    let window = MeasureWindow()
    let fleet = try SSESubscriberFleet.open(
      subscribers: options.subscribers, ids: [BenchRequests.widgetID(0)],
      on: FanOutMeasurement.subscriberLoops(loops), using: loops, window: window)
    return try FanOutMeasurement.run(
      "sse-fanout", options, loops: loops, fleet: fleet, window: window)
  }
}
