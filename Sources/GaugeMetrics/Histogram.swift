/// A histogram counted on one thread: observations go into fixed buckets,
/// with no lock and no atomic, and a scrape reads a snapshot on the same
/// thread. A class so that the place an event happens can hold it and
/// count without a lookup.
public final class Histogram {
  public let upperBounds: [Double]
  /// The bounds in nanoseconds, for `observe(nanoseconds:)`.
  private let nanosecondBounds: [UInt64]
  private var counts: [UInt64]
  private var sum: Double = 0
  /// What `observe(nanoseconds:)` added, kept apart as an integer: no
  /// floating point on that path.
  private var nanosecondSum: UInt64 = 0

  public init(upperBounds: [Double]) {
    precondition(zip(upperBounds, upperBounds.dropFirst()).allSatisfy { $0 < $1 })
    self.upperBounds = upperBounds
    self.nanosecondBounds = upperBounds.map { UInt64(($0 * 1e9).rounded()) }
    self.counts = Array(repeating: 0, count: upperBounds.count + 1)
  }

  /// A time in nanoseconds, for bounds in seconds: the path a call takes.
  public func observe(nanoseconds: UInt64) {
    var index = 0
    while index < nanosecondBounds.count, nanoseconds > nanosecondBounds[index] { index += 1 }
    counts[index] &+= 1
    nanosecondSum &+= nanoseconds
  }

  public func observe(_ value: Double) {
    // A linear walk: the bucket lists are short and most observations
    // land in the first few.
    var index = 0
    while index < upperBounds.count, value > upperBounds[index] { index += 1 }
    counts[index] &+= 1
    sum += value
  }

  public func observe(_ duration: Duration) {
    observe(duration.seconds)
  }

  public var snapshot: HistogramSnapshot {
    HistogramSnapshot(
      upperBounds: upperBounds, counts: counts, sum: sum + Double(nanosecondSum) / 1e9)
  }
}

extension Duration {
  /// The duration in seconds, as Prometheus wants times.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// Bucket bounds in use.
public enum HistogramBuckets {
  /// Prometheus' client default, in seconds: the one go-grpc-prometheus
  /// and most HTTP middlewares use, so existing dashboards read it.
  public static let latencySeconds: [Double] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  ]

  /// Finer at the bottom, for work that is usually well under a
  /// millisecond (a store commit without fsync).
  public static let fastSeconds: [Double] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
  ]
}
