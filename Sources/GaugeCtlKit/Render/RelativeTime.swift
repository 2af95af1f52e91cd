/// "updated 42s ago": the age of an update in the largest two units.
public enum RelativeTime {
  /// A length of time in the largest two units: `30s`, `5m 0s`, `7d 0h`.
  public static func span(ms: Int64) -> String {
    if ms < 1000 { return "\(max(ms, 0))ms" }
    let seconds = ms / 1000
    if seconds < 60 { return "\(seconds)s" }
    let minutes = seconds / 60
    if minutes < 60 { return "\(minutes)m \(seconds % 60)s" }
    let hours = minutes / 60
    if hours < 24 { return "\(hours)h \(minutes % 60)m" }
    return "\(hours / 24)d \(hours % 24)h"
  }

  public static func ago(fromMs then: Int64, nowMs now: Int64) -> String {
    // GAUGECTL_NOW_MS and a widget's time may be any Int64s.
    let (elapsed, overflow) = now.subtractingReportingOverflow(then)
    let seconds = overflow ? (now > then ? Int64.max / 1000 : 0) : elapsed / 1000
    guard seconds > 0 else { return "just now" }
    // Whole seconds, so `span` never gets to its milliseconds.
    return span(ms: seconds * 1000) + " ago"
  }
}
