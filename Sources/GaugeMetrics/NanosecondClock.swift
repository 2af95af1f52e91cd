import Glibc

/// Nanoseconds on the monotonic clock, as a plain integer (GaugeService has
/// a millisecond clock of its own for intervals): timing a call
/// then costs one vDSO read and an integer subtraction, where
/// `ContinuousClock`'s instants and durations are 128-bit arithmetic and a
/// conversion to seconds on every observation.
public enum NanosecondClock {
  @inline(__always)
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }
}
