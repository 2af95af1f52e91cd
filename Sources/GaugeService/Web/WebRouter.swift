import GRPCTransport

/// Picks the HTTP face for a request that is not a gRPC call, by path:
/// a service method's path goes to gRPC-Web and Connect; then live events,
/// the REST resources, the pages (the dashboard and its files, the index);
/// anything else is 404.
public final class WebRouter: HTTPResponder {
  private let rpc: WebRPCFace?
  private let rest: RESTFace
  private let events: EventsFace
  private let pages: WebPages

  /// `assets`: the dashboard's files, those embedded in the binary unless a
  /// test brings its own.
  public init(
    rpc: WebRPCFace? = nil, rest: RESTFace, events: EventsFace, index: IndexPage,
    assets: WebAssetCatalogue = .embedded()
  ) {
    self.rpc = rpc
    self.rest = rest
    self.events = events
    self.pages = WebPages(assets: assets, index: index)
  }

  public var answersWebRPC: Bool { rpc != nil }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    if let rpc, rpc.serves(path: request.path) {
      rpc.handle(request, exchange: exchange)
    } else if request.path == EventsFace.path {
      events.handle(request, exchange: exchange)
    } else if RESTFace.handles(path: request.path) {
      rest.handle(request, exchange: exchange)
    } else if WebPages.serves(path: request.path) {
      pages.handle(request, exchange: exchange)
    } else {
      exchange.respond(
        ProblemDetails(
          status: 404,
          detail: "nothing is served at \(request.path); see / for what is"
        ).response)
    }
  }
}
