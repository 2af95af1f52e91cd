import GRPCTransport
import GaugeLog
import GaugeMetrics
import Synchronization
import Testing

@testable import GaugeService

@Suite struct CoalescingReportTests {
  private func families(_ total: Double) -> [MetricFamily] {
    [
      MetricFamily(
        name: SubscriptionMetrics.coalescedName, help: "", kind: .counter,
        series: [MetricSeries(total)])
    ]
  }

  @Test func reportsWhatWasMissedSinceTheLastReportOnly() {
    let lines = Mutex<[String]>([])
    let log = EventLog(format: .text, level: .info) { line in lines.withLock { $0.append(line) } }
    let report = CoalescingReport(metrics: ServerMetrics(), log: log)
    report.report(families(0))
    report.report(families(40))
    report.report(families(40))
    report.report(families(45))
    let written = lines.withLock { $0 }
    #expect(written.count == 2)
    #expect(written[0].contains("subscribers_coalesced") && written[0].contains("events=40"))
    #expect(written[1].contains("events=5") && written[1].contains("total=45"))
  }
}
