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
      // By bytes: Character-wise String work showed on every request.
      let bytes = path.utf8
      let prefix = "/widgets/".utf8
      guard bytes.starts(with: prefix), bytes.count > prefix.count,
        !bytes.dropFirst(prefix.count).contains(UInt8(ascii: "/"))
      else {
        self = .unknown
        return
      }
      let segment = Substring(path.utf8.dropFirst(prefix.count))
      // An id needs decoding only when it holds an escape.
      self = .widget(
        id: segment.utf8.contains(UInt8(ascii: "%"))
          ? URLComponentDecoding.decode(segment, plusIsSpace: false) : String(segment))
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
