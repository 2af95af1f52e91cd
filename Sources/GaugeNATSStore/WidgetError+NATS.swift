import GaugeDomain
import GaugeNATS

extension WidgetError {
  /// A failed bucket call as the faces report it. Nothing was applied here
  /// (only the watch changes the replica); a write that timed out may still
  /// land, and the watch then shows it like any other change.
  init(_ error: NATSError) {
    switch error.kind {
    case .resourceExhausted:
      self = .resourceExhausted("not applied: \(error)")
    case .unavailable, .notFound, .notPermitted, .invalid, .failed:
      self = .unavailable("not applied: \(error)")
    }
  }
}
