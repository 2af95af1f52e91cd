import GRPCCore

/// One HTTP request as every face sees it, whichever protocol carried it:
/// HTTP/1.1 and HTTP/2 sessions both build this.
public struct HTTPRequest: Sendable {
  /// `GET`, `POST`, ... as sent (methods are case-sensitive).
  public var method: String
  /// The target's path, still percent-encoded (`/widgets/cpu`).
  public var path: String
  /// The target's query without the `?`, still percent-encoded; nil when absent.
  public var query: String?
  public var headers: HTTPFields
  /// The whole body (bodies are bounded by the session before a face sees them).
  public var body: [UInt8]
  public var version: HTTPVersion

  public init(
    method: String, path: String, query: String? = nil, headers: HTTPFields = HTTPFields(),
    body: [UInt8] = [], version: HTTPVersion = .http1_1
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.version = version
  }

  /// Splits a request target (`/widgets?prefix=c`) into path and query.
  public init(
    method: String, target: String, headers: HTTPFields = HTTPFields(), body: [UInt8] = [],
    version: HTTPVersion = .http1_1
  ) {
    // By bytes: a Character-wise search showed on every request.
    if let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
      self.init(
        method: method, path: String(Substring(target.utf8[..<question])),
        query: String(Substring(target.utf8[target.utf8.index(after: question)...])),
        headers: headers, body: body, version: version)
    } else {
      self.init(
        method: method, path: target, query: nil, headers: headers, body: body, version: version)
    }
  }

  /// The query's parameters in order, percent- and `+`-decoded.
  public var queryItems: [(name: String, value: String)] {
    guard let query, !query.isEmpty else { return [] }
    return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      if let equals = pair.firstIndex(of: "=") {
        return (
          URLComponentDecoding.decode(pair[..<equals]),
          URLComponentDecoding.decode(pair[pair.index(after: equals)...])
        )
      }
      return (URLComponentDecoding.decode(pair), "")
    }
  }

  /// The first value of query parameter `name`.
  public func queryValue(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }
}

public enum HTTPVersion: Sendable, Equatable {
  case http1_0
  case http1_1
  case http2
}

/// Percent-decoding of a path segment or query component (`+` is a space
/// in a query, as HTML forms send it).
public enum URLComponentDecoding {
  public static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String {
    PercentEncoding.decode(text, plusIsSpace: plusIsSpace)
  }
}
