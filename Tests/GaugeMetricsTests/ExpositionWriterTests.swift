import Testing

@testable import GaugeMetrics

@Suite struct ExpositionWriterTests {
  private let families = [
    MetricFamily(
      name: "calls_total", help: "Calls, by \"kind\".\nSecond line \\ here.", kind: .counter,
      series: [
        MetricSeries(labels: [MetricLabel("kind", "a\"b\\c\nd")], 3),
        MetricSeries(labels: [MetricLabel("kind", "plain")], 0),
      ]),
    MetricFamily(
      name: "temperature", help: "Degrees.", kind: .gauge, series: [MetricSeries(21.5)]),
  ]

  @Test func writesPrometheusText() {
    let text = ExpositionWriter(format: .prometheusText).write(families)
    #expect(
      text == """
        # HELP calls_total Calls, by "kind".\\nSecond line \\\\ here.
        # TYPE calls_total counter
        calls_total{kind="a\\"b\\\\c\\nd"} 3
        calls_total{kind="plain"} 0
        # HELP temperature Degrees.
        # TYPE temperature gauge
        temperature 21.5

        """)
  }

  @Test func writesOpenMetrics() {
    let text = ExpositionWriter(format: .openMetrics).write(families)
    #expect(
      text == """
        # HELP calls Calls, by \\"kind\\".\\nSecond line \\\\ here.
        # TYPE calls counter
        calls_total{kind="a\\"b\\\\c\\nd"} 3
        calls_total{kind="plain"} 0
        # HELP temperature Degrees.
        # TYPE temperature gauge
        temperature 21.5
        # EOF

        """)
  }

  @Test func writesHistogramsCumulatively() {
    let histogram = Histogram(upperBounds: [0.1, 1])
    for value in [0.05, 0.1, 0.5, 3, 4] { histogram.observe(value) }
    let family = MetricFamily(
      name: "latency_seconds", help: "Latency.", kind: .histogram,
      series: [MetricSeries(labels: [MetricLabel("m", "x")], value: .histogram(histogram.snapshot))]
    )
    let text = ExpositionWriter(format: .prometheusText).write([family])
    #expect(
      text == """
        # HELP latency_seconds Latency.
        # TYPE latency_seconds histogram
        latency_seconds_bucket{m="x",le="0.1"} 2
        latency_seconds_bucket{m="x",le="1.0"} 3
        latency_seconds_bucket{m="x",le="+Inf"} 5
        latency_seconds_sum{m="x"} 7.65
        latency_seconds_count{m="x"} 5

        """)
  }

  @Test func writesSpecialNumbers() {
    #expect(ExpositionWriter.number(.infinity) == "+Inf")
    #expect(ExpositionWriter.number(-.infinity) == "-Inf")
    #expect(ExpositionWriter.number(.nan) == "NaN")
    #expect(ExpositionWriter.number(1e20) == "1e+20")
    #expect(ExpositionWriter.number(1_796_173_812_191_304) == "1796173812191304")
    #expect(ExpositionWriter.number(42) == "42")
    #expect(ExpositionWriter.number(0.25) == "0.25")
  }
}
