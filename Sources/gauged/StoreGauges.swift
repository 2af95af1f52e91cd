import GaugeDomain
import GaugeMetrics
import GaugeNATSStore
import GaugeStore

/// gauged's own figures read at scrape time: widgets and the revision from
/// the store, and the writer's queue and failures when there is a disk.
struct StoreGauges: Sendable {
  /// The store's widgets and last revision, in one short look.
  let census: @Sendable () -> (widgets: Int, lastRevision: UInt64)
  let persistence: SQLiteWidgetPersistence?
  /// `--nats`'s store: its connection and lost compare-and-sets.
  var shared: NATSWidgetStore? = nil

  func families() -> [MetricFamily] {
    let census = census()
    var families = [
      MetricFamily(
        name: "gauged_widgets", help: "Widgets in the store.", kind: .gauge,
        series: [MetricSeries(Double(census.widgets))]),
      MetricFamily(
        name: "gauged_revision", help: "The last revision the store gave a change.",
        kind: .gauge, series: [MetricSeries(Double(census.lastRevision))]),
    ]
    if let shared {
      families += [
        MetricFamily(
          name: "gauged_nats_connected", help: "1 while the connection to NATS is up.",
          kind: .gauge, series: [MetricSeries(shared.isConnected ? 1 : 0)]),
        MetricFamily(
          name: "gauged_nats_write_conflicts_total",
          help: "Writes that lost a compare-and-set to another writer and read the widget again.",
          kind: .counter, series: [MetricSeries(Double(shared.conflictCount))]),
        MetricFamily(
          name: "gauged_nats_put_seconds",
          help: "Time JetStream took to answer a write: a blocking write's round trip, or an"
            + " asynchronous value put's from its send to its acknowledgement.",
          kind: .histogram, series: [MetricSeries(value: .histogram(shared.putSeconds))]),
      ]
    }
    guard let persistence else { return families }
    let statistics = persistence.statistics
    families += [
      MetricFamily(
        name: "gauged_store_queue_depth", help: "Changes recorded and not yet committed.",
        kind: .gauge, series: [MetricSeries(Double(persistence.queueDepth))]),
      MetricFamily(
        name: "gauged_store_commits_total", help: "Store transactions that committed changes.",
        kind: .counter, series: [MetricSeries(Double(statistics.commits))]),
      MetricFamily(
        name: "gauged_store_failures_total", help: "Store transactions that failed.",
        kind: .counter, series: [MetricSeries(Double(statistics.failedCommits))]),
      MetricFamily(
        name: "gauged_store_commit_seconds", help: "Time the store's committed transactions took.",
        kind: .histogram, series: [MetricSeries(value: .histogram(persistence.commitSeconds))]),
    ]
    return families
  }
}
