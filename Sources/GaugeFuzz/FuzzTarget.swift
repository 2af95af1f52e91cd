/// The harnesses a fuzzer or a corpus replay can run, by name.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// Well-formed HTTP/2 from gauged's own client, fuzzed gRPC calls on it.
  case calls
  /// Raw bytes after the HTTP/2 preface.
  case frames
  /// Writes to the SQLite store and to memory, with restarts in between.
  case store
  /// Documents for gaugectl's JSON reader and writers.
  case json
  /// Raw bytes from an HTTP/1.1 client after accept, to the web faces.
  case http1
  /// Bodies for the REST face's PUT, PATCH and POST /values.
  case restjson
  /// `--tokens-file` lines, `authorization` values, cookies and scopes.
  case tokens

  public func run(_ data: [UInt8]) throws(FuzzFinding) {
    switch self {
    case .calls: try CallsHarness.run(data)
    case .frames: try FramesHarness.run(data)
    case .store: try StoreHarness.run(data)
    case .json: try JSONHarness.run(data)
    case .http1: try HTTP1Harness.run(data)
    case .restjson: try RESTJSONHarness.run(data)
    case .tokens: try TokensHarness.run(data)
    }
  }
}
