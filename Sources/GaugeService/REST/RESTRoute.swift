import GRPCTransport

/// The resources of the REST face, from a request's path.
enum RESTRoute: Equatable {
  /// `/widgets`
  case widgets
  /// `/widgets/{id}`, the id percent-decoded.
  case widget(id: String)
  /// `/values`
  case values
  /// Anything else under `/widgets/` (`/widgets/a/b`).
  case unknown

  /// Served by another face (Server-Sent Events).
  static let eventsPath = "/widgets/events"

  init(path: String) {
    switch path {
    case "/widgets": self = .widgets
    case "/values": self = .values
    default:
      let segment = path.dropFirst("/widgets/".count)
      guard path.hasPrefix("/widgets/"), !segment.isEmpty, !segment.contains("/") else {
        self = .unknown
        return
      }
      self = .widget(id: URLComponentDecoding.decode(segment, plusIsSpace: false))
    }
  }

  /// The methods each resource answers, for `Allow`.
  var allowedMethods: [String] {
    switch self {
    case .widgets: ["GET", "HEAD", "POST", "OPTIONS"]
    case .widget: ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"]
    case .values: ["POST", "OPTIONS"]
    case .unknown: []
    }
  }
}
