import GRPCClient
import GRPCCore
import GaugeIO
import GaugeWire
import Glibc

/// `connections` connections, each holding one Subscribe on one widget;
/// then `rounds` single updates, each stamped with the producer's clock and
/// awaited until every subscriber has it (10 s at most). Latency is per
/// subscriber and update.
enum ConnectionsScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(1, loops: loops)
    let address = loops.address
    let window = MeasureWindow(start: 0, end: .max - 1)
    let subscriberLoops = Array(loops.loops.dropLast())
    let producerLoop = loops.loops.last!
    let connectStart = MonotonicNanos.now()
    let fleet = try SubscriberFleet.open(
      subscribers: options.connections, perConnection: 1, ids: [BenchRequests.widgetID(0)],
      on: subscriberLoops, using: loops, window: window)
    let setupSeconds = MonotonicNanos.seconds(MonotonicNanos.now() - connectStart)

    let producer = try SingleUpdates(address: address, loop: producerLoop, using: loops)
    var complete = 0
    var failures: [String] = []
    var meter = CPUMeter(serverPID: options.serverPID)
    meter.start()
    for round in 1...options.rounds {
      producer.send { failures.append($0) }
      if fleet.awaitDeliveries(perSubscriber: UInt64(round), using: loops, timeout: .seconds(10)) {
        complete += 1
      }
      usleep(50_000)
    }
    meter.stop()
    let delivery = fleet.tally(using: loops)
    fleet.close(using: loops)

    var line = JSONLine()
    line.add("scenario", "connections")
    line.add("connections", options.connections)
    line.add("loops", "\(subscriberLoops.count)+1")
    line.add("setup_s", setupSeconds, decimals: 2)
    line.addRounds(
      options.rounds, reachingAll: complete, connections: options.connections,
      delivery: delivery, meter: meter)
    if let failure = failures.first ?? delivery.firstFailure { line.add("first_failure", failure) }
    return line
  }
}

/// One connection on its own loop that sends single UpdateWidget calls,
/// stamped with the clock the moment they are made.
struct SingleUpdates: Sendable {
  private let channel: LoopBound<GRPCChannel>

  init(address: SocketAddress, loop: EventLoop, using load: LoadLoops) throws(BenchFailure) {
    let configuration = load.configuration
    let connected: Result<LoopBound<GRPCChannel>, BenchFailure> = load.run(on: loop) {
      loop, done in
      do {
        let channel = try LoadLoops.connect(
          1, to: address, on: loop, configuration: configuration)[0]
        done(.success(LoopBound(channel, on: loop)))
      } catch {
        done(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
    }
    channel = try connected.get()
  }

  /// Sends without waiting; `failed` runs (on the main thread's next
  /// `send`, never concurrently) when the call did not succeed.
  func send(failed: (String) -> Void) {
    let outcome = Rendezvous<String?>()
    channel.execute { channel in
      var request = TrailingValueMessage.updateWidget(id: BenchRequests.widgetID(0))
      request.set(Double(MonotonicNanos.now()))
      channel.connection.unary(path: BenchRequests.updateWidget, request: request.bytes) {
        outcome.deliver($0.status.code == .ok ? nil : $0.status.description)
      }
    }
    if let result = outcome.wait(for: 1, timeout: .seconds(10)) {
      if let failure = result[0] { failed(failure) }
    } else {
      failed("UpdateWidget got no answer within 10 s")
    }
  }
}
