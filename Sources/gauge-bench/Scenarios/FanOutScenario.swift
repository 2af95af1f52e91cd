/// One widget and `subscribers` Subscribe streams on it (`perConnection`
/// to a connection), fed by `FanOutMeasurement`'s producer.
enum FanOutScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(1, loops: loops, rich: options.richWidget)
    let window = MeasureWindow()
    let fleet = try SubscriberFleet.open(
      subscribers: options.subscribers, perConnection: options.perConnection,
      ids: [BenchRequests.widgetID(0)], valueDeltas: options.valueDeltas,
      on: FanOutMeasurement.subscriberLoops(loops), using: loops, window: window)
    return try FanOutMeasurement.run(
      "fanout", options, loops: loops, fleet: fleet, window: window)
  }
}
