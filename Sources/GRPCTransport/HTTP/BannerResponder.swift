/// The HTTP answers of a server with no HTTP faces (the interop server):
/// the banner at `/`, 404 elsewhere.
public struct BannerResponder: HTTPResponder {
  private let text: String

  public init(serverName: String, services: [String]) {
    self.text = ServerBanner.text(serverName: serverName, services: services)
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    guard request.path == "/" else {
      return exchange.respond(
        ProblemDetails(status: 404, detail: "nothing is served at \(request.path)").response)
    }
    guard request.method == "GET" || request.method == "HEAD" else {
      return exchange.respond(
        ProblemDetails.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]).response)
    }
    exchange.respond(
      HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: text))
  }
}
