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
    // By bytes: String comparisons and Character-wise work showed on every
    // request.
    var path = path
    self = path.withUTF8 { Self.route(bytes: $0) }
  }

  private static func route(bytes: UnsafeBufferPointer<UInt8>) -> RESTRoute {
    if starts(bytes, with: "/values") { return bytes.count == 7 ? .values : .unknown }
    guard starts(bytes, with: "/widgets") else { return .unknown }
    let prefixCount = 9  // "/widgets/"
    if bytes.count == prefixCount - 1 { return .widgets }
    guard bytes[prefixCount - 1] == UInt8(ascii: "/"), bytes.count > prefixCount else {
      return .unknown
    }
    let segment = UnsafeBufferPointer(rebasing: bytes[prefixCount...])
    guard !segment.contains(UInt8(ascii: "/")) else { return .unknown }
    let text = String(decoding: segment, as: UTF8.self)
    // An id needs decoding only when it holds an escape.
    return .widget(
      id: segment.contains(UInt8(ascii: "%"))
        ? URLComponentDecoding.decode(Substring(text), plusIsSpace: false) : text)
  }

  private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString)
    -> Bool
  {
    prefix.withUTF8Buffer { prefix in
      bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
    }
  }

  /// The `route` label of requests to it: the resource's template.
  var label: String {
    switch self {
    case .widgets: "/widgets"
    case .widget: "/widgets/{id}"
    case .values: "/values"
    case .unknown: "unknown path"
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
