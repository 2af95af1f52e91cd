import GRPCTransport

/// The browser's face: the dashboard at `/`, the playground at
/// `/playground` (and `/playground/{id}`), their files at `/assets/...`,
/// all from the catalogue embedded at build time. `/` stays the plain-text
/// index for whoever does not ask for HTML (curl, tools), and
/// `/index.txt` is that index for everyone.
public struct WebPages: HTTPResponder {
  private let assets: WebAssetCatalogue
  private let index: IndexPage

  /// Only the page's own origin may supply anything: no inline script or
  /// style, no CDN, nowhere else to send data.
  static let contentSecurityPolicy = "default-src 'self'"

  public init(assets: WebAssetCatalogue = .embedded(), index: IndexPage) {
    self.assets = assets
    self.index = index
  }

  /// Whether a path is one of this face's (the rest is for other faces,
  /// or 404).
  static func serves(path: String) -> Bool {
    path == "/" || path == "/index.txt" || path == "/playground"
      || path.hasPrefix("/playground/") || path.hasPrefix("/assets/")
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    guard request.method == "GET" || request.method == "HEAD" else {
      return exchange.respond(
        ProblemDetails.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]).response)
    }
    let path = request.path
    let file: String
    var varyFields = "accept-encoding"
    if path == "/index.txt" {
      return index.handle(request, exchange: exchange)
    } else if path == "/" {
      // Browsers name text/html in Accept; curl sends */* and gets the text.
      guard Self.namesHTML(request.headers["accept"]) else {
        return index.handle(request, exchange: exchange)
      }
      file = "index.html"
      varyFields = "accept, accept-encoding"
    } else if path == "/playground" || path.hasPrefix("/playground/") {
      // One page; it reads the widget's id from its own address.
      file = "playground.html"
    } else {
      file = String(path.dropFirst())
    }
    guard let asset = assets[file] else {
      return exchange.respond(
        ProblemDetails(status: 404, detail: "nothing is served at \(path); see / for what is")
          .response)
    }
    respond(with: asset, to: request, vary: varyFields, exchange: exchange)
  }

  private func respond(
    with asset: WebAsset, to request: HTTPRequest, vary: String, exchange: any HTTPExchange
  ) {
    let gzip = asset.gzipped != nil && Self.acceptsGzip(request.headers["accept-encoding"])
    var headers: HTTPFields = [:]
    headers.append("etag", gzip ? asset.gzippedETag : asset.etag)
    // Revalidate every time: the files change with the binary, and a 304
    // costs a round trip and no bytes.
    headers.append("cache-control", "no-cache")
    headers.append("vary", vary)
    if let ifNoneMatch = request.headers["if-none-match"], asset.matches(ifNoneMatch: ifNoneMatch) {
      return exchange.respond(HTTPResponse(status: 304, headers: headers))
    }
    headers.append("content-type", asset.contentType)
    headers.append("content-security-policy", Self.contentSecurityPolicy)
    headers.append("x-content-type-options", "nosniff")
    if gzip { headers.append("content-encoding", "gzip") }
    exchange.respond(
      HTTPResponse(
        status: 200, headers: headers, body: gzip ? asset.gzipped ?? [] : asset.identity))
  }

  /// True when `Accept` names `text/html` itself (not through a wildcard)
  /// without refusing it.
  static func namesHTML(_ accept: String?) -> Bool {
    guard let accept else { return false }
    return mediaRanges(accept).contains { $0.name == "text/html" && $0.quality > 0 }
  }

  /// True when `Accept-Encoding` admits gzip, by name or by `*`.
  static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
    guard let acceptEncoding else { return false }
    let ranges = mediaRanges(acceptEncoding)
    if let named = ranges.first(where: { $0.name == "gzip" || $0.name == "x-gzip" }) {
      return named.quality > 0
    }
    return ranges.contains { $0.name == "*" && $0.quality > 0 }
  }

  /// `a;q=0.5, b` → [("a", 0.5), ("b", 1)], names lower-cased.
  private static func mediaRanges(_ header: String) -> [(name: String, quality: Double)] {
    header.split(separator: ",").map { element in
      let parts = element.split(separator: ";")
      let name = (parts.first ?? "").filter { $0 != " " && $0 != "\t" }.lowercased()
      var quality = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.filter { $0 != " " && $0 != "\t" }.split(separator: "=")
        if pair.count == 2, pair[0].lowercased() == "q" { quality = Double(pair[1]) ?? 0 }
      }
      return (name, quality)
    }
  }
}
