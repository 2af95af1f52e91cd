#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's real-time clock, for `createdAtMs` / `updatedAtMs`.
public enum WallClock {
  /// Milliseconds since the Unix epoch.
  @Sendable public static func unixMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// Microseconds since the Unix epoch: a revision counter that starts
  /// here is ahead of any counter an earlier life of the process reached,
  /// unless it took more than a million revisions a second.
  @Sendable public static func unixMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
  }
}
