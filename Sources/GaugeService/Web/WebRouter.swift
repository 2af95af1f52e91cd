import GRPCTransport

/// Picks the HTTP face for a request that is not a gRPC call, by path:
/// a service method's path goes to gRPC-Web and Connect; then live events,
/// the REST resources, the index page; anything else is 404.
public final class WebRouter: HTTPResponder {
  private let rpc: WebRPCFace?
  private let rest: RESTFace
  private let events: EventsFace
  private let index: IndexPage

  public init(rpc: WebRPCFace? = nil, rest: RESTFace, events: EventsFace, index: IndexPage) {
    self.rpc = rpc
    self.rest = rest
    self.events = events
    self.index = index
  }

  public var answersWebRPC: Bool { rpc != nil }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    if let rpc, rpc.serves(path: request.path) {
      rpc.handle(request, exchange: exchange)
    } else if request.path == EventsFace.path {
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
