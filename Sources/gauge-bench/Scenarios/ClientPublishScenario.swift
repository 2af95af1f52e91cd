import GaugeClient
import GaugeIO

/// The client library's `ValuePublisher` driven by one task, as a Swift
/// service would: `send` per value, then `finish()`. Beside `publish` with
/// one stream (the same server work from gauge-bench's own event-loop
/// client), it shows what the library's async path costs.
enum ClientPublishScenario {
  /// Sends between looks at the clock.
  private static let sendsPerClockRead = 1024

  static func run(_ options: BenchOptions, loops: LoadLoops) throws(BenchFailure) -> JSONLine {
    try WidgetSetup.create(options.widgets, loops: loops)
    let ids = (0..<options.widgets).map(BenchRequests.widgetID)
    let client: GaugeClient
    do {
      client = try GaugeClient(target: options.target)
    } catch {
      throw BenchFailure("cannot make a client for \(options.target): \(error)")
    }
    let start = MonotonicNanos.now()
    let end = start + MonotonicNanos.from(seconds: options.duration)
    var meter = CPUMeter(serverPID: options.serverPID)
    meter.start()
    let outcome = Rendezvous<Result<Published, GaugeError>>()
    Task {
      let publisher = client.publisher()
      var sent: UInt64 = 0
      var index = 0
      do throws(GaugeError) {
        while MonotonicNanos.now() < end {
          for _ in 0..<sendsPerClockRead {
            try await publisher.send(id: ids[index], value: Double(sent))
            sent += 1
            index = index + 1 == ids.count ? 0 : index + 1
          }
        }
        let report = try await publisher.finish()
        outcome.deliver(.success(Published(sent: sent, report: report, at: MonotonicNanos.now())))
      } catch {
        outcome.deliver(.failure(error))
      }
      await client.close()
    }
    guard let results = outcome.wait(for: 1, timeout: .seconds(options.duration + 60)) else {
      throw BenchFailure("the publisher did not finish within a minute of its window")
    }
    meter.stop()
    let published: Published
    switch results[0] {
    case .success(let value): published = value
    case .failure(let error): throw BenchFailure("publishing: \(error)")
    }
    let seconds = MonotonicNanos.seconds(published.at - start)
    var line = JSONLine()
    line.add("scenario", "client-publish")
    line.add("widgets", options.widgets)
    line.add("seconds", seconds, decimals: 2)
    line.add("sent", published.sent)
    line.add("accepted", published.report.accepted)
    line.add("rejected", published.report.rejected)
    line.add("updates_per_s", Double(published.report.accepted) / seconds, decimals: 0)
    meter.report(into: &line)
    if let first = published.report.rejections.first {
      line.add("first_failure", "\(first.id): \(first.message)")
    }
    return line
  }

  private struct Published: Sendable {
    var sent: UInt64
    var report: PublishReport
    var at: UInt64
  }
}
