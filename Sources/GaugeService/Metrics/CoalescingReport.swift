import GRPCTransport
import GaugeLog
import GaugeMetrics
import Synchronization

/// The log's word on slow subscribers: once a minute, how many events they
/// missed because newer ones replaced them while they waited. A summary,
/// not a line per event, and nothing in a minute without any.
public final class CoalescingReport: Sendable {
  private let metrics: ServerMetrics
  private let log: EventLog
  private let reported = Mutex<Double>(0)

  public init(metrics: ServerMetrics, log: EventLog) {
    self.metrics = metrics
    self.log = log
  }

  public func start(every interval: Duration = .seconds(60)) {
    metrics.repeatEvery(interval) { [self] in
      metrics.collect { [self] snapshot in report(snapshot.parts) }
    }
  }

  func report(_ families: [MetricFamily]) {
    let total =
      families.first { $0.name == SubscriptionMetrics.coalescedName }?.series.reduce(0.0) {
        guard case .number(let value) = $1.value else { return $0 }
        return $0 + value
      } ?? 0
    let missed = reported.withLock { last in
      defer { last = total }
      return total - last
    }
    guard missed > 0 else { return }
    log.info(
      "subscribers_coalesced",
      "slow subscribers missed \(Int(missed)) events replaced by newer ones",
      [LogField("events", Int(missed)), LogField("total", Int(total))])
  }
}
