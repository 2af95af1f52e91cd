/// Latencies in nanoseconds, kept in log-linear buckets (128 per power of
/// two, so a percentile is off by less than 1%) rather than one sample per
/// event: a fan-out run records tens of millions. The maximum is exact.
struct LatencyHistogram {
  private static let subBucketBits = 7
  private static let subBuckets = 1 << subBucketBits
  private static let halfSubBuckets = subBuckets / 2

  private var buckets = [UInt64](repeating: 0, count: (64 - subBucketBits + 2) * halfSubBuckets)
  private(set) var count: UInt64 = 0
  private(set) var max: UInt64 = 0
  private(set) var sum: Double = 0

  mutating func record(_ nanoseconds: UInt64) {
    buckets[Self.index(of: nanoseconds)] &+= 1
    count += 1
    sum += Double(nanoseconds)
    if nanoseconds > max { max = nanoseconds }
  }

  mutating func merge(_ other: LatencyHistogram) {
    for index in buckets.indices { buckets[index] &+= other.buckets[index] }
    count += other.count
    sum += other.sum
    if other.max > max { max = other.max }
  }

  /// The smallest recorded latency with at least `fraction` of the samples
  /// at or below it (to the bucket's midpoint); 0 when empty.
  func percentile(_ fraction: Double) -> UInt64 {
    guard count > 0 else { return 0 }
    let rank = Swift.max(1, UInt64((fraction * Double(count)).rounded(.up)))
    var seen: UInt64 = 0
    for (index, inBucket) in buckets.enumerated() where inBucket > 0 {
      seen += inBucket
      if seen >= rank { return Swift.min(Self.midpoint(of: index), max) }
    }
    return max
  }

  var mean: Double { count == 0 ? 0 : sum / Double(count) }

  // Values below 128 get a bucket each; above, a power of two 2^(e+6) ...
  // 2^(e+7) splits into 64 buckets of width 2^e.
  private static func index(of value: UInt64) -> Int {
    guard value >= UInt64(subBuckets) else { return Int(value) }
    let exponent = (63 - value.leadingZeroBitCount) - (subBucketBits - 1)
    let subBucket = Int(value >> UInt64(exponent))  // 64 ... 127
    return exponent * halfSubBuckets + subBucket
  }

  private static func midpoint(of index: Int) -> UInt64 {
    guard index >= subBuckets else { return UInt64(index) }
    let exponent = index / halfSubBuckets - 1
    let subBucket = UInt64(index % halfSubBuckets + halfSubBuckets)
    let low = subBucket << UInt64(exponent)
    return low + (UInt64(1) << UInt64(exponent)) / 2
  }
}
