/// The bounds of `stale_after_ms`: a second is the finest staleness a
/// once-a-second producer can be held to; a week, the longest a deadline
/// is worth keeping.
public enum StaleAfter {
  public static let minimumMs: Int64 = 1000
  public static let maximumMs: Int64 = 7 * 24 * 3600 * 1000
  public static let field = "stale_after_ms"
}

extension Violations {
  /// Records why `staleAfterMs` is out of bounds, when present.
  mutating func checkStaleAfter(_ staleAfterMs: Int64?) {
    guard let staleAfterMs,
      !(StaleAfter.minimumMs...StaleAfter.maximumMs).contains(staleAfterMs)
    else { return }
    add(
      StaleAfter.field,
      "must be between \(StaleAfter.minimumMs) (one second) and \(StaleAfter.maximumMs) "
        + "(seven days), got \(staleAfterMs)")
  }
}
