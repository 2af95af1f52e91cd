/// The two formats a scraper may ask for. Prometheus' text format 0.0.4
/// is the default; OpenMetrics 1.0 when the `Accept` field names it, as
/// Prometheus does when it prefers it.
public enum ExpositionFormat: Sendable, Equatable {
  case prometheusText
  case openMetrics

  public var contentType: String {
    switch self {
    case .prometheusText: "text/plain; version=0.0.4; charset=utf-8"
    case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
    }
  }

  /// The format for a request's `Accept` field. A media range with q=0 is
  /// refused by the client, so it does not count; otherwise any mention of
  /// OpenMetrics picks it, as the official clients do.
  public static func negotiate(accept: String?) -> ExpositionFormat {
    guard let accept else { return .prometheusText }
    for range in accept.split(separator: ",") {
      let parts = range.split(separator: ";").map {
        $0.trimmingSpaces.lowercased()
      }
      guard parts.first == "application/openmetrics-text" else { continue }
      let refused = parts.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.00" }
      if !refused { return .openMetrics }
    }
    return .prometheusText
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return text
  }
}
