import Glibc

/// Nanoseconds on the monotonic clock, as a plain integer: timing a call
/// then costs one vDSO read and an integer subtraction, where
/// `ContinuousClock`'s instants and durations are 128-bit arithmetic and a
/// conversion to seconds on every observation.
public enum MonotonicClock {
  @inline(__always)
  public static func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }
}
