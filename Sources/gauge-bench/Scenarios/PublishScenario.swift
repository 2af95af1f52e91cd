import GRPCClient
import GaugeIO
import GaugeWire

/// PublishValues as fast as flow control allows: `streams` streams over
/// `connections` connections to `widgets` widgets (each stream takes its
/// own slice when there are enough widgets, else all share them). Counts
/// only what the summaries accepted, over the time until the last summary.
enum PublishScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(options.widgets, loops: loops)
    let address = loops.address
    let configuration = loops.configuration
    let (streams, widgets) = (options.streams, options.widgets)
    let connections = min(options.connections, streams)
    let start = MonotonicNanos.now()
    let window = MeasureWindow(
      start: start, end: start + MonotonicNanos.from(seconds: options.duration))
    let loopCount = loops.loops.count
    var meter = CPUMeter(serverPID: options.serverPID)
    meter.start()
    let pending: PendingResults<Result<PublishTally, BenchFailure>> = loops.startOnEach {
      index, loop, done in
      // Connections go to loops, then streams to connections, round robin.
      let myConnections = (0..<connections).filter { $0 % loopCount == index }
      guard !myConnections.isEmpty else { return done(.success(PublishTally())) }
      let channels: [GRPCChannel]
      do {
        channels = try LoadLoops.connect(
          myConnections.count, to: address, on: loop, configuration: configuration)
      } catch {
        return done(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
      let myStreams = (0..<streams).filter { myConnections.contains($0 % connections) }
      var tally = PublishTally()
      var open = myStreams.count
      for stream in myStreams {
        let channel = channels[myConnections.firstIndex(of: stream % connections)!]
        _ = PublishStream(
          channel: channel, on: loop, requests: slice(of: widgets, for: stream, of: streams),
          pace: .fullSpeed, stampTime: false, window: window
        ) { streamTally in
          tally.merge(streamTally)
          open -= 1
          if open == 0 {
            channels.forEach { $0.close() }
            done(.success(tally))
          }
        }
      }
    }
    MonotonicNanos.sleep(until: window.end)
    meter.stop()
    var tally = PublishTally()
    for result in pending.wait() ?? [] { tally.merge(try result.get()) }
    let seconds = MonotonicNanos.seconds(tally.finishedAt - start)
    var line = JSONLine()
    line.add("scenario", "publish")
    line.add("streams", streams)
    line.add("connections", connections)
    line.add("widgets", widgets)
    line.add("loops", loopCount)
    line.add("seconds", seconds, decimals: 2)
    line.add("sent", tally.sent)
    line.add("accepted", tally.accepted)
    line.add("rejected", tally.rejected)
    line.add("updates_per_s", Double(tally.accepted) / seconds, decimals: 0)
    meter.report(into: &line)
    if let failure = tally.firstFailure { line.add("first_failure", failure) }
    return line
  }

  /// The widgets stream `stream` publishes to.
  static func slice(of widgets: Int, for stream: Int, of streams: Int) -> [TrailingValueMessage] {
    let ids: Range<Int>
    if widgets >= streams {
      let lower = stream * widgets / streams
      ids = lower..<((stream + 1) * widgets / streams)
    } else {
      ids = 0..<widgets
    }
    return ids.map { TrailingValueMessage.valueUpdate(id: BenchRequests.widgetID($0)) }
  }
}
