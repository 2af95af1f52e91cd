/// A histogram's buckets at one moment: how many observations fell in each
/// bucket (not yet cumulative: snapshots of several loops add bucket by
/// bucket), the last one being +Inf, and the sum of what was observed.
public struct HistogramSnapshot: Sendable, Equatable {
  public let upperBounds: [Double]
  /// One per upper bound, and one more for +Inf.
  public private(set) var counts: [UInt64]
  public private(set) var sum: Double

  public init(upperBounds: [Double], counts: [UInt64]? = nil, sum: Double = 0) {
    precondition(counts == nil || counts!.count == upperBounds.count + 1)
    self.upperBounds = upperBounds
    self.counts = counts ?? Array(repeating: 0, count: upperBounds.count + 1)
    self.sum = sum
  }

  public var count: UInt64 { counts.reduce(0, &+) }

  /// The counts as the exposition shows them: each bucket holds every
  /// observation at or under its bound.
  public var cumulativeCounts: [UInt64] {
    var running: UInt64 = 0
    return counts.map {
      running &+= $0
      return running
    }
  }

  /// Adds `other`, which must have the same bounds.
  public mutating func add(_ other: HistogramSnapshot) {
    precondition(other.upperBounds == upperBounds, "histograms with different buckets")
    for index in counts.indices { counts[index] &+= other.counts[index] }
    sum += other.sum
  }
}
