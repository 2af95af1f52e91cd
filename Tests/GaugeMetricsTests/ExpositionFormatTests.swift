import Testing

@testable import GaugeMetrics

@Suite struct ExpositionFormatTests {
  @Test func defaultsToPrometheusText() {
    #expect(ExpositionFormat.negotiate(accept: nil) == .prometheusText)
    #expect(ExpositionFormat.negotiate(accept: "*/*") == .prometheusText)
    #expect(ExpositionFormat.negotiate(accept: "text/plain;version=0.0.4") == .prometheusText)
  }

  @Test func picksOpenMetricsWhenAskedFor() {
    // What Prometheus 2.x sends when it prefers OpenMetrics.
    let prometheus =
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
      + "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
    #expect(ExpositionFormat.negotiate(accept: prometheus) == .openMetrics)
    #expect(ExpositionFormat.negotiate(accept: "Application/OpenMetrics-Text") == .openMetrics)
  }

  @Test func ignoresARefusedOpenMetrics() {
    #expect(
      ExpositionFormat.negotiate(accept: "application/openmetrics-text; q=0, text/plain")
        == .prometheusText)
  }
}
