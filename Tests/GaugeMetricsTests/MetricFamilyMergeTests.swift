import Testing

@testable import GaugeMetrics

@Suite struct MergeTests {
  @Test func addsSeriesOfTheSameLabelsAndKeepsTheRest() {
    let label = [MetricLabel("face", "grpc")]
    let first = [
      MetricFamily(
        name: "a_total", help: "A.", kind: .counter, series: [MetricSeries(labels: label, 2)])
    ]
    let second = [
      MetricFamily(
        name: "a_total", help: "A.", kind: .counter,
        series: [
          MetricSeries(labels: label, 3), MetricSeries(labels: [MetricLabel("face", "events")], 1),
        ]),
      MetricFamily(name: "b", help: "B.", kind: .gauge, series: [MetricSeries(7)]),
    ]
    let merged = first.merged(with: second)
    #expect(merged.map(\.name) == ["a_total", "b"])
    #expect(merged[0].series.map(\.value) == [.number(5), .number(1)])
  }
}
