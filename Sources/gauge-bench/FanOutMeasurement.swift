import GRPCClient
import GaugeIO
import GaugeWire
import Glibc

/// What the fan-out scenarios share once their subscribers are synced on
/// the first widget: a producer on the last loop publishes its clock into
/// the widget's value at `rate` updates per second (0: as fast as flow
/// control allows) for `duration`; the fleet counts live events delivered
/// inside the window and times each against the clock it carries, so an
/// event that coalescing replaced is never timed: only values that arrived
/// are.
enum FanOutMeasurement {
  /// Every loop but the last, which is the producer's.
  static func subscriberLoops(_ loops: LoadLoops) -> [EventLoop] {
    Array(loops.loops.dropLast())
  }

  static func run(
    _ scenario: String, _ options: BenchOptions, loops: LoadLoops, fleet: some DeliveryFleet,
    window: MeasureWindow
  ) throws(BenchFailure) -> JSONLine {
    let address = loops.address
    let configuration = loops.configuration
    let producerLoop = loops.loops.last!
    // The producer starts now; counting starts once it is under way.
    let producing = MonotonicNanos.now()
    let start = producing + MonotonicNanos.from(seconds: min(0.5, options.duration / 10))
    let end = start + MonotonicNanos.from(seconds: options.duration)
    window.set(start: start, end: end)
    let pace: PublishStream.Pace = options.rate > 0 ? .perSecond(options.rate) : .fullSpeed
    let pending: PendingResults<Result<PublishTally, BenchFailure>> = loops.startOnEach(
      [producerLoop]
    ) { _, loop, done in
      let channel: GRPCChannel
      do {
        channel = try LoadLoops.connect(1, to: address, on: loop, configuration: configuration)[0]
      } catch {
        return done(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
      _ = PublishStream(
        channel: channel, on: loop,
        requests: [TrailingValueMessage.valueUpdate(id: BenchRequests.widgetID(0))], pace: pace,
        stampTime: true, window: MeasureWindow(start: producing, end: end)
      ) { tally in
        channel.close()
        done(.success(tally))
      }
    }
    var meter = CPUMeter(serverPID: options.serverPID)
    MonotonicNanos.sleep(until: start)
    meter.start()
    MonotonicNanos.sleep(until: end)
    meter.stop()
    guard let published = pending.wait(timeout: .seconds(60))?.first else {
      throw BenchFailure("the producer's PublishValues did not finish within 60 s")
    }
    let producer = try published.get()
    // Events still on their way at the end are outside the window anyway.
    usleep(100_000)
    let delivery = fleet.tally(using: loops)
    fleet.close(using: loops)

    var line = JSONLine()
    line.add("scenario", scenario)
    line.add("subscribers", options.subscribers)
    line.add("connections", fleet.connections)
    line.add("rate", options.rate > 0 ? String(Int(options.rate)) : "max")
    line.add("loops", "\(loops.loops.count - 1)+1")
    line.add("seconds", window.seconds, decimals: 2)
    line.add("published", producer.accepted)
    line.add(
      "published_per_s", Double(producer.accepted) / MonotonicNanos.seconds(end - producing),
      decimals: 0)
    line.add("delivered", delivery.delivered)
    line.add("delivered_per_s", Double(delivery.delivered) / window.seconds, decimals: 0)
    // 1.0 when every subscriber saw every update; below it, coalescing
    // merged updates for readers that fell behind.
    let offered = Double(producer.accepted) * Double(options.subscribers)
    line.add(
      "delivered_fraction", offered > 0 ? Double(delivery.deliveredEver) / offered : 0, decimals: 3)
    if delivery.deliveredBytes > 0, delivery.deliveredEver > 0 {
      // What one event weighs as gRPC frames it (HTTP/2's frame headers,
      // shared by the events of one DATA frame, are not counted).
      line.add(
        "bytes_per_delivery", Double(delivery.deliveredBytes) / Double(delivery.deliveredEver),
        decimals: 1)
    }
    line.add(latency: delivery.latency, prefix: "")
    line.add("subscriber_failures", delivery.failed)
    meter.report(into: &line)
    // What one event costs each side: separate connections per subscriber
    // (SSE) pay a send and a read for every event, shared ones do not.
    meter.report(per: "delivery", count: delivery.delivered, into: &line)
    if let failure = producer.firstFailure ?? delivery.firstFailure {
      line.add("first_failure", failure)
    }
    return line
  }
}
