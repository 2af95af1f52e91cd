import Glibc

/// CLOCK_MONOTONIC in nanoseconds: what a producer writes into a value and
/// a subscriber subtracts from its own reading, both in this process.
enum MonotonicNanos {
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  static func seconds(_ nanoseconds: UInt64) -> Double {
    Double(nanoseconds) / 1e9
  }

  static func from(seconds: Double) -> UInt64 {
    UInt64((seconds * 1e9).rounded())
  }
}
