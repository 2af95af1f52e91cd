import GRPCClient
import GaugeIO
import Glibc

/// The server's resident memory per idle subscription and per idle
/// connection, read from /proc before and after opening each kind. The
/// subscriptions come first, `perConnection` to a connection whose own cost
/// is measured before they open, then the idle connections, so that memory
/// only grows and neither figure profits from memory the other freed.
enum MemoryScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    guard let pid = options.serverPID else {
      throw BenchFailure("memory needs --server-pid")
    }
    func rss() throws(BenchFailure) -> Int {
      // Idle means idle for a while: gauged gives an idle connection's
      // spare pages back one to two seconds after its last read or write.
      usleep(2_500_000)
      guard let bytes = ProcessMemory.residentBytes(pid: pid) else {
        throw BenchFailure("cannot read VmRSS of process \(pid)")
      }
      return bytes
    }
    try WidgetSetup.create(1, loops: loops)
    let idle = MeasureWindow()
    let before = try rss()

    // The subscriptions' connections, each with one call done so the
    // server has set it up fully, then the subscriptions on them.
    let fleet = try SubscriberFleet.connect(
      subscribers: options.subscribers, perConnection: options.perConnection, on: loops.loops,
      using: loops, window: idle)
    let withCarriers = try rss()
    try fleet.subscribe(ids: [BenchRequests.widgetID(0)], using: loops)
    let withSubscriptions = try rss()
    try IdleConnections.open(options.connections, using: loops)
    let withConnections = try rss()
    let stillSynced = fleet.tally(using: loops)

    var line = JSONLine()
    line.add("scenario", "memory")
    line.add("subscriptions", options.subscribers)
    line.add("subscription_connections", fleet.connections)
    line.add("connections", options.connections)
    line.add("rss_start_kib", before / 1024)
    line.add("rss_end_kib", withConnections / 1024)
    line.add(
      "bytes_per_subscription",
      Double(withSubscriptions - withCarriers) / Double(options.subscribers), decimals: 0)
    line.add(
      "bytes_per_connection",
      Double(withConnections - withSubscriptions) / Double(options.connections), decimals: 0)
    line.add("subscriber_failures", stillSynced.failed)
    return line
  }
}

/// Connections that made one call each (a GetWidget) and then sit idle,
/// spread over the loops.
enum IdleConnections {
  static func open(_ count: Int, using load: LoadLoops) throws(BenchFailure) {
    let address = load.address
    let configuration = load.configuration
    let loopCount = load.loops.count
    let results: [Result<Int, BenchFailure>]? = load.runOnEach(timeout: .seconds(120)) {
      index, loop, done in
      do {
        let channels = try LoadLoops.connect(
          LoadLoops.share(of: count, part: index, of: loopCount), to: address, on: loop,
          configuration: configuration)
        warmUp(channels, ready: done)
      } catch {
        done(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
    }
    guard let results else { throw BenchFailure("\(count) connections were not ready in 120 s") }
    for result in results { _ = try result.get() }
  }

  /// One GetWidget on each channel; `ready` once all have answered.
  static func warmUp(
    _ channels: [GRPCChannel], ready: @escaping (Result<Int, BenchFailure>) -> Void
  ) {
    guard !channels.isEmpty else { return ready(.success(0)) }
    let request = BenchRequests.getRequest(id: BenchRequests.widgetID(0))
    var open = channels.count
    var failed = 0
    var firstFailure = ""
    for channel in channels {
      channel.connection.unary(path: BenchRequests.getWidget, request: request) { response in
        if response.status.code != .ok {
          if failed == 0 { firstFailure = response.status.description }
          failed += 1
        }
        open -= 1
        guard open == 0 else { return }
        ready(
          failed == 0
            ? .success(channels.count)
            : .failure(BenchFailure("\(failed) new connections could not call: \(firstFailure)")))
      }
    }
  }
}
