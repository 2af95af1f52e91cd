import GaugeIO
import Glibc

/// One widget and `subscribers` Subscribe streams on it (`perConnection`
/// to a connection), fed by `FanOutMeasurement`'s producer; with
/// `--subscribe-targets`, the streams are on other instances than the
/// producer's.
enum FanOutScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(1, loops: loops, rich: options.richWidget)
    let window = MeasureWindow()
    var addresses: [SocketAddress] = []
    for target in options.subscribeTargets {
      do {
        addresses.append(try SocketAddress(parsing: target))
      } catch {
        throw BenchFailure("--subscribe-targets \(target): \(error)")
      }
    }
    // The widget reaches the other instances through their shared store
    // (within milliseconds); each subscriber connection reads it first.
    if !addresses.isEmpty { usleep(500_000) }
    let fleet = try SubscriberFleet.open(
      subscribers: options.subscribers, perConnection: options.perConnection,
      ids: [BenchRequests.widgetID(0)], valueDeltas: options.valueDeltas,
      on: FanOutMeasurement.subscriberLoops(loops), using: loops, window: window,
      addresses: addresses)
    return try FanOutMeasurement.run(
      "fanout", options, loops: loops, fleet: fleet, window: window)
  }
}
