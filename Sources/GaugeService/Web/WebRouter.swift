import GRPCTransport

/// Picks the HTTP face for a request that is not a gRPC call, by path:
/// live events, the REST resources, the index page; anything else is 404.
public final class WebRouter: HTTPResponder {
  private let rest: RESTFace
  private let events: EventsFace
  private let index: IndexPage

  public init(rest: RESTFace, events: EventsFace, index: IndexPage) {
    self.rest = rest
    self.events = events
    self.index = index
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    if request.path == EventsFace.path {
      events.handle(request, exchange: exchange)
    } else if RESTFace.handles(path: request.path) {
      rest.handle(request, exchange: exchange)
    } else if request.path == "/" {
      index.handle(request, exchange: exchange)
    } else {
      exchange.respond(
        ProblemDetails(
          status: 404,
          detail: "nothing is served at \(request.path); see / for what is"
        ).response)
    }
  }
}
