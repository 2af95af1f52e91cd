import GaugeIO

/// The time "updated … ago" is measured against. `GAUGECTL_NOW_MS` fixes
/// it (Unix milliseconds), so a rendered frame can be compared in tests.
struct WallClock: Sendable {
  private let fixedMs: Int64?

  init(environment: [String: String]) {
    fixedMs = environment["GAUGECTL_NOW_MS"].flatMap { Int64($0) }
  }

  var nowMs: Int64 { fixedMs ?? Syscall.wallClockMilliseconds() }
}
