import Testing

@testable import GaugeMetrics

@Suite struct HistogramTests {
  @Test func bucketsByUpperBoundInclusive() {
    let histogram = Histogram(upperBounds: [1, 2])
    for value in [0.0, 1, 1.5, 2, 2.5] { histogram.observe(value) }
    let snapshot = histogram.snapshot
    #expect(snapshot.counts == [2, 2, 1])
    #expect(snapshot.cumulativeCounts == [2, 4, 5])
    #expect(snapshot.count == 5)
    #expect(snapshot.sum == 7)
  }

  @Test func snapshotsOfSeveralLoopsAdd() {
    let first = Histogram(upperBounds: [1])
    let second = Histogram(upperBounds: [1])
    first.observe(0.5)
    second.observe(0.25)
    second.observe(5)
    var total = first.snapshot
    total.add(second.snapshot)
    #expect(total.counts == [2, 1])
    #expect(total.sum == 5.75)
  }

  @Test func observesDurationsInSeconds() {
    let histogram = Histogram(upperBounds: HistogramBuckets.latencySeconds)
    histogram.observe(Duration.milliseconds(7))
    #expect(histogram.snapshot.counts[1] == 1)
    #expect(abs(histogram.snapshot.sum - 0.007) < 1e-12)
  }
}

@Suite struct HistogramNanosecondTests {
  @Test func nanosecondsLandInTheSecondsBuckets() {
    let histogram = Histogram(upperBounds: [0.001, 0.01])
    histogram.observe(nanoseconds: 1_000_000)  // exactly 1 ms: the first bucket
    histogram.observe(nanoseconds: 1_000_001)
    histogram.observe(nanoseconds: 20_000_000)
    histogram.observe(0.5)
    let snapshot = histogram.snapshot
    #expect(snapshot.counts == [1, 1, 2])
    #expect(abs(snapshot.sum - 0.522000001) < 1e-12)
  }
}
