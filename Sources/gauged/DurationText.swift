/// Durations on the command line: a whole number and a unit, like `24h`,
/// `30m`, `90s`, `250ms` or `7d`.
enum DurationText {
  private static let units: [(suffix: String, milliseconds: Int64)] = [
    ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
  ]

  /// What the timer flags expect, for their error messages.
  static let expected = "a duration (like 250ms, 20s, 5m, 2h; 0 for none)"

  /// Milliseconds, or nil when `text` is not a number and a unit, or is
  /// longer than ten years.
  static func milliseconds(_ text: String) -> Int64? {
    // "ms" before "m" and "s": the longest suffix that leaves digits wins.
    for (suffix, scale) in units.sorted(by: { $0.suffix.count > $1.suffix.count }) {
      guard text.hasSuffix(suffix) else { continue }
      let digits = text.dropLast(suffix.count)
      guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
        let count = Int64(digits)
      else { return nil }
      let (total, overflow) = count.multipliedReportingOverflow(by: scale)
      guard !overflow, total <= 3650 * 86_400_000 else { return nil }
      return total
    }
    return nil
  }

  /// The same as a Duration; a bare `0` is zero too.
  static func parse(_ text: String) -> Duration? {
    if text == "0" { return .zero }
    return milliseconds(text).map { .milliseconds($0) }
  }

  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds != 0 { return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000)ms" }
    if seconds != 0, seconds % 3600 == 0 { return "\(seconds / 3600)h" }
    if seconds != 0, seconds % 60 == 0 { return "\(seconds / 60)m" }
    return "\(seconds)s"
  }
}
