/// A `CORSPolicy` in front of the HTTP faces: it answers preflights from
/// allowed origins itself, and hands every other request on with an
/// exchange that puts the policy's fields on the answer, so every face,
/// present or to come, is covered without knowing of CORS.
public struct CORSResponder: HTTPResponder {
  public let policy: CORSPolicy
  private let faces: any HTTPResponder

  public init(policy: CORSPolicy, wrapping faces: any HTTPResponder) {
    self.policy = policy
    self.faces = faces
  }

  public var answersWebRPC: Bool { faces.answersWebRPC }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    if let preflight = policy.preflightResponse(to: request) {
      return exchange.respond(preflight)
    }
    let fields = policy.responseFields(origin: request.headers["origin"])
    faces.handle(request, exchange: CORSExchange(exchange, adding: fields))
  }
}
