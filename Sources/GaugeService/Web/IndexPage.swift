import GRPCTransport

/// `GET /` for clients that do not ask for HTML, and `GET /index.txt`:
/// what gauged is and where each face answers, as plain text for people
/// with curl and for tools. Browsers get the dashboard at `/` instead.
public struct IndexPage: HTTPResponder {
  private let text: String

  public init(serverName: String, services: [String]) {
    var lines = [
      serverName,
      "Live widgets (gauges, progress bars, values), on one port for every client.",
      "",
      "gRPC (HTTP/2, prior knowledge):",
    ]
    lines += services.map { "  " + $0 }
    lines += [
      "",
      "gRPC-Web and Connect (HTTP/1.1 or HTTP/2), the same methods at /{service}/{method}:",
      "  application/grpc-web+proto, application/grpc-web-text+proto",
      "  application/proto, application/json, application/connect+proto, application/connect+json",
      "  GET ?connect=v1&encoding=json&message=...   (GetWidget, ListWidgets)",
      "",
      "REST/JSON (HTTP/1.1 or HTTP/2):",
      "  GET    /widgets?prefix=&page_size=&page_token=",
      "  POST   /widgets",
      "  GET    /widgets/{id}",
      "  PUT    /widgets/{id}",
      "  PATCH  /widgets/{id}        (application/merge-patch+json)",
      "         ?dry_run=true on PUT or PATCH: the answer the write would get, nothing written",
      "  DELETE /widgets/{id}",
      "  POST   /values              (NDJSON, or text/plain lines \"ID VALUE\")",
      "",
      "Live updates (Server-Sent Events):",
      "  GET    /widgets/events?ids=a,b&prefix=&min_interval_ms=",
      "",
      "In a browser:",
      "  GET    /?ids=a,b&prefix=&family=   the live dashboard (for Accept: text/html)",
      "  GET    /playground/{id}            a widget's form, drawn in every family",
      "  GET    /index.txt                  this text",
    ]
    self.text = lines.joined(separator: "\n") + "\n"
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    guard request.method == "GET" || request.method == "HEAD" else {
      return exchange.respond(
        ProblemDetails.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]).response)
    }
    exchange.respond(
      HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: text))
  }
}
