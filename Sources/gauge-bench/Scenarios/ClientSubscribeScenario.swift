import GRPCClient
import GaugeClient
import GaugeIO
import Synchronization

/// One `for try await` loop over the client library's subscription to
/// --widgets widgets, while a PublishValues stream on gauge-bench's own
/// client writes to them at --rate updates/s (in a batch each millisecond;
/// 0 for full speed): the events the loop consumes per second. The server
/// coalesces what a slow reader cannot take, so the figure is the slowest
/// of the producer, the server's delivery to one subscriber, and the
/// library's decoding and hand-off to the task.
enum ClientSubscribeScenario {
  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(options.widgets, loops: loops)
    let client: GaugeClient
    do {
      client = try GaugeClient(target: options.target)
    } catch {
      throw BenchFailure("cannot make a client for \(options.target): \(error)")
    }
    let synced = Rendezvous<Result<Void, BenchFailure>>()
    let tally = EventTally()
    let consumer = Task {
      var announced = false
      do {
        for try await event in client.subscribe(prefix: "bench-") {
          switch event {
          case .upsert: tally.count()
          case .synced:
            if !announced {
              announced = true
              synced.deliver(.success(()))
            }
          case .snapshot, .removed, .reset: break
          }
        }
      } catch {
        if !announced { synced.deliver(.failure(BenchFailure("subscribing: \(error)"))) }
        tally.fail("the subscription failed: \(error)")
      }
    }
    guard let subscribed = synced.wait(for: 1, timeout: .seconds(60)) else {
      consumer.cancel()
      throw BenchFailure("the subscription did not sync within a minute")
    }
    try subscribed[0].get()

    let start = MonotonicNanos.now()
    let end = start + MonotonicNanos.from(seconds: options.duration)
    var meter = CPUMeter(serverPID: options.serverPID)
    meter.start()
    tally.open()
    let producer = try publishAtFullSpeed(options, loops: loops, until: end)
    MonotonicNanos.sleep(until: end)
    let events = tally.close()
    meter.stop()
    consumer.cancel()
    if let failure = tally.failure { throw BenchFailure(failure) }
    let published = try producer.wait()
    let seconds = MonotonicNanos.seconds(end - start)
    var line = JSONLine()
    line.add("scenario", "client-subscribe")
    line.add("widgets", options.widgets)
    line.add("seconds", seconds, decimals: 2)
    line.add("published", published.accepted)
    line.add("published_per_s", Double(published.accepted) / seconds, decimals: 0)
    line.add("events", events)
    line.add("events_per_s", Double(events) / seconds, decimals: 0)
    meter.report(into: &line)
    return line
  }

  /// The events the loop counted while the measured window was open, and
  /// how the subscription failed, if it did.
  private final class EventTally: Sendable {
    private let events = Atomic<UInt64>(0)
    private let isOpen = Atomic<Bool>(false)
    private let failed = Mutex<String?>(nil)

    func count() {
      if isOpen.load(ordering: .relaxed) { events.wrappingAdd(1, ordering: .relaxed) }
    }
    func open() { isOpen.store(true, ordering: .relaxed) }
    func close() -> UInt64 {
      isOpen.store(false, ordering: .relaxed)
      return events.load(ordering: .relaxed)
    }
    func fail(_ reason: String) { failed.withLock { $0 = $0 ?? reason } }
    var failure: String? { failed.withLock { $0 } }
  }

  /// One PublishValues stream over all the widgets until `end`, on the
  /// first loop, at --rate.
  private static func publishAtFullSpeed(
    _ options: BenchOptions, loops: LoadLoops, until end: UInt64
  ) throws(BenchFailure) -> ProducerRun {
    let address = loops.address
    let configuration = loops.configuration
    let window = MeasureWindow(start: MonotonicNanos.now(), end: end)
    let requests = PublishScenario.slice(of: options.widgets, for: 0, of: 1)
    let tally = Rendezvous<Result<PublishTally, BenchFailure>>()
    let loop = loops.loops[0]
    loop.execute {
      let channel: GRPCChannel
      do {
        channel = try LoadLoops.connect(1, to: address, on: loop, configuration: configuration)[0]
      } catch {
        return tally.deliver(.failure(BenchFailure("cannot connect to \(address): \(error)")))
      }
      _ = PublishStream(
        channel: channel, on: loop, requests: requests,
        pace: options.rate > 0 ? .batchedPerSecond(options.rate) : .fullSpeed, stampTime: false,
        window: window
      ) { result in
        channel.close()
        tally.deliver(.success(result))
      }
    }
    return ProducerRun(tally: tally)
  }

  private struct ProducerRun {
    let tally: Rendezvous<Result<PublishTally, BenchFailure>>

    func wait() throws(BenchFailure) -> PublishTally {
      guard let results = tally.wait(for: 1, timeout: .seconds(60)) else {
        throw BenchFailure("the producer's stream did not end within a minute of its window")
      }
      return try results[0].get()
    }
  }
}
