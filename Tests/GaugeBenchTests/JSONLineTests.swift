import Testing

@testable import gauge_bench

@Suite struct JSONLineTests {
  @Test func fieldsKeepTheirOrderAndTypes() {
    var line = JSONLine()
    line.add("scenario", "unary")
    line.add("count", 3)
    line.add("rate", 1234.56, decimals: 1)
    line.add("whole", 2.0)
    line.add("ok", true)
    #expect(
      line.description
        == #"{"scenario": "unary", "count": 3, "rate": 1234.6, "whole": 2, "ok": true}"#)
  }

  @Test func stringsAreEscapedAndNonFiniteNumbersAreNull() {
    var line = JSONLine()
    line.add("text", "a \"b\"\\\n\u{1}")
    line.add("nan", Double.nan)
    #expect(line.description == #"{"text": "a \"b\"\\\n\u0001", "nan": null}"#)
  }

  @Test func latencyFieldsRunFromTheMedianToTheMaximum() {
    var histogram = LatencyHistogram()
    // 1,000 samples of 1..1000 µs: each percentile is its rank in µs.
    for micros in 1...1000 { histogram.record(UInt64(micros) * 1000) }
    var line = JSONLine()
    line.add(latency: histogram, prefix: "")
    let keys = line.description.split(separator: ",").map {
      $0.split(separator: ":")[0].filter { $0.isLetter || $0.isNumber || $0 == "_" }
    }
    #expect(keys == ["p50_us", "p90_us", "p99_us", "p999_us", "max_us"])
    #expect(histogram.percentile(0.9) / 1000 >= 895 && histogram.percentile(0.9) / 1000 <= 905)
    #expect(histogram.percentile(0.999) / 1000 >= 990 && histogram.percentile(0.999) / 1000 <= 1000)
  }
}
