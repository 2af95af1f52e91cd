import GaugeMetrics
import Synchronization

/// How long JetStream took to answer gauged's writes: a blocking write's
/// round trip, or an asynchronous put's from its send to its
/// acknowledgement. For `gauged_nats_put_seconds`; the writing threads and
/// libnats's acknowledgement thread observe under a short lock.
final class PutLatency: Sendable {
  private let histogram = Mutex(Histogram(upperBounds: HistogramBuckets.fastSeconds))

  /// Records a write begun at `startedAt` (`NanosecondClock.now()`).
  func observe(since startedAt: UInt64) {
    let elapsed = NanosecondClock.now() &- startedAt
    histogram.withLock { $0.observe(nanoseconds: elapsed) }
  }

  var snapshot: HistogramSnapshot { histogram.withLock { $0.snapshot } }
}
