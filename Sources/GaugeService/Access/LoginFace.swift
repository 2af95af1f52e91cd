import GRPCTransport
import GaugeAuth

/// `POST /login`: a browser hands over a token once (`authorization:
/// Bearer gd_…`) and gets it back as a cookie, which its `EventSource`
/// then sends, since it cannot set headers. The cookie is `HttpOnly`
/// (scripts never read it again), `Secure` and `SameSite=Strict` (other
/// sites' pages cannot send it). `DELETE /login` clears it.
public struct LoginFace: Sendable {
  public static let path = "/login"
  private let gate: AccessGate

  public init(gate: AccessGate) {
    self.gate = gate
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    switch request.method {
    case "POST":
      login(request, exchange: exchange)
    case "DELETE":
      exchange.respond(
        HTTPResponse(status: 204, headers: ["set-cookie": Self.cookie(value: "", maxAge: 0)]))
    default:
      exchange.respond(
        ProblemDetails.methodNotAllowed(request.method, allowed: ["POST", "DELETE"]).response)
    }
  }

  private func login(_ request: HTTPRequest, exchange: any HTTPExchange) {
    guard gate.requiresTokens else {
      // Nothing to remember: every request is served without a token.
      return exchange.respond(HTTPResponse(status: 204))
    }
    let authorization = request.headers["authorization"]
    guard authorization != nil else {
      return exchange.respond(
        AccessRefusal.unauthenticated(
          "send the token to log in with as authorization: Bearer gd_…"
        ).problem.response)
    }
    // Any valid token may log in; what it may do is checked per request.
    switch gate.check(.scope(.read), authorization: authorization, cookie: nil) {
    case .refused(let refusal):
      exchange.respond(refusal.problem.response)
    case .granted:
      guard case .secret(let secret) = BearerCredential.fromAuthorization(authorization) else {
        return exchange.respond(HTTPResponse(status: 500))
      }
      exchange.respond(
        HTTPResponse(
          status: 204, headers: ["set-cookie": Self.cookie(value: String(secret), maxAge: nil)]))
    }
  }

  private static func cookie(value: String, maxAge: Int?) -> String {
    var cookie =
      "\(BearerCredential.cookieName)=\(value); Path=/; HttpOnly; Secure; SameSite=Strict"
    if let maxAge { cookie += "; Max-Age=\(maxAge)" }
    return cookie
  }
}
