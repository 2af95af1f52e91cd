import GRPCClient
import GaugeIO
import GaugeWire

/// Closed-loop UpdateWidget (value only): `connections` × `streams` calls
/// in flight, spread over the loops; requests per second and latency of
/// the calls that complete inside the measured window.
enum UnaryScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(options.widgets, loops: loops)
    let address = loops.address
    let configuration = loops.configuration
    let start = MonotonicNanos.now() + MonotonicNanos.from(seconds: options.warmup)
    let window = MeasureWindow(
      start: start, end: start + MonotonicNanos.from(seconds: options.duration))
    let loopCount = loops.loops.count
    let (connections, streams, widgets) = (options.connections, options.streams, options.widgets)
    let pending: PendingResults<Result<UnaryTally, BenchFailure>> = loops.startOnEach {
      index, loop, done in
      let share = LoadLoops.share(of: connections, part: index, of: loopCount)
      let channels: [GRPCChannel]
      do {
        channels = try LoadLoops.connect(share, to: address, on: loop, configuration: configuration)
      } catch {
        return done(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
      var requests = (0..<widgets).map {
        TrailingValueMessage.updateWidget(id: BenchRequests.widgetID($0))
      }
      var sent = 0
      _ = ClosedLoopUnary(
        channels: channels, inFlight: streams, path: BenchRequests.updateWidget, window: window,
        nextRequest: {
          sent += 1
          let widget = sent % requests.count
          requests[widget].set(Double(sent))
          return requests[widget].bytes
        },
        done: { tally in
          channels.forEach { $0.close() }
          done(.success(tally))
        })
    }
    var meter = CPUMeter(serverPID: options.serverPID)
    MonotonicNanos.sleep(until: window.start)
    meter.start()
    MonotonicNanos.sleep(until: window.end)
    meter.stop()
    var tally = UnaryTally()
    for result in pending.wait() ?? [] { tally.merge(try result.get()) }
    var line = JSONLine()
    line.add("scenario", "unary")
    line.add("connections", connections)
    line.add("streams_per_connection", streams)
    line.add("widgets", widgets)
    line.add("loops", loopCount)
    line.add("seconds", window.seconds, decimals: 2)
    line.add("requests", tally.completed)
    line.add("failed", tally.failed)
    line.add("requests_per_s", Double(tally.completed) / window.seconds, decimals: 0)
    line.add(latency: tally.latency, prefix: "")
    meter.report(into: &line)
    if let failure = tally.firstFailure { line.add("first_failure", failure) }
    return line
  }
}
