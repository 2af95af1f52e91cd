import Testing

@testable import gauge_bench

@Suite struct LatencyHistogramTests {
  @Test func percentilesOfAUniformSpreadAreWithinOnePercent() {
    var histogram = LatencyHistogram()
    for microseconds in 1...10_000 { histogram.record(UInt64(microseconds) * 1000) }
    #expect(histogram.count == 10_000)
    #expect(histogram.max == 10_000_000)
    for (fraction, exact) in [(0.5, 5_000_000.0), (0.99, 9_900_000.0), (0.01, 100_000.0)] {
      let found = Double(histogram.percentile(fraction))
      #expect(abs(found - exact) / exact < 0.01, "p\(fraction * 100): \(found) for \(exact)")
    }
  }

  @Test func smallValuesAreExactAndTheMaximumIsNeverExceeded() {
    var histogram = LatencyHistogram()
    for value: UInt64 in [3, 3, 7, 100] { histogram.record(value) }
    #expect(histogram.percentile(0.5) == 3)
    #expect(histogram.percentile(0.75) == 7)
    #expect(histogram.percentile(1) == 100)
    var large = LatencyHistogram()
    large.record(1_000_003)
    #expect(large.percentile(0.5) == 1_000_003)
  }

  @Test func mergingAddsCountsAndKeepsTheLargerMaximum() {
    var first = LatencyHistogram()
    var second = LatencyHistogram()
    for _ in 0..<90 { first.record(1_000) }
    for _ in 0..<10 { second.record(1_000_000) }
    first.merge(second)
    #expect(first.count == 100)
    #expect(first.max == 1_000_000)
    let p90 = first.percentile(0.90)
    let p95 = first.percentile(0.95)
    #expect(p90 >= 990 && p90 <= 1_010)
    #expect(p95 >= 990_000 && p95 <= 1_000_000)
  }

  @Test func anEmptyHistogramReportsZero() {
    let histogram = LatencyHistogram()
    #expect(histogram.percentile(0.99) == 0)
    #expect(histogram.max == 0)
  }

  @Test func valuesUpToTheLargestUInt64HaveABucket() {
    var histogram = LatencyHistogram()
    histogram.record(.max)
    #expect(histogram.max == .max)
    #expect(histogram.percentile(1) >= UInt64.max / 100 * 99)
  }
}
