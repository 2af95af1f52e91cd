import GRPCTransport
import GaugeDomain
import GaugeJSON
import WidgetJSON

/// `/tokens` in the REST face (admin only): `GET /tokens` lists them
/// without secrets, `POST /tokens` with `{"name", "scope", "prefix",
/// "expires_in_ms", "write_rate_per_s", "write_burst"}` makes one and answers its secret once (201),
/// `DELETE /tokens/{name}` revokes one (204).
public struct TokensFace: Sendable {
  public static let path = "/tokens"
  private let administration: TokenAdministration

  public init(administration: TokenAdministration) {
    self.administration = administration
  }

  public static func handles(path: String) -> Bool {
    path == Self.path || path.hasPrefix(Self.path + "/")
  }

  public func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    let response: HTTPResponse
    do throws(RESTProblem) {
      response = try answer(request)
    } catch {
      return exchange.respond(error.details.response)
    }
    exchange.respond(response)
  }

  private func answer(_ request: HTTPRequest) throws(RESTProblem) -> HTTPResponse {
    if request.path == Self.path {
      switch request.method {
      case "GET", "HEAD":
        let list = JSONValue.object([
          ("tokens", .array(administration.registry.tokens.map(Self.json)))
        ])
        return Self.jsonResponse(200, list)
      case "POST":
        return try create(request)
      default:
        throw RESTProblem(
          405, "\(request.method) is not allowed here; allowed: GET, HEAD, POST",
          headers: ["allow": "GET, HEAD, POST"])
      }
    }
    let name = URLComponentDecoding.decode(
      request.path.dropFirst(Self.path.count + 1), plusIsSpace: false)
    guard request.method == "DELETE" else {
      throw RESTProblem(
        405, "\(request.method) is not allowed here; allowed: DELETE", headers: ["allow": "DELETE"])
    }
    switch administration.revoke(name: name) {
    case .success: return HTTPResponse(status: 204)
    case .failure(let failure): throw RESTProblem(failure.problem)
    }
  }

  private func create(_ request: HTTPRequest) throws(RESTProblem) -> HTTPResponse {
    _ = try request.bodyMediaType(["application/json"])
    let body = try request.bodyJSON()
    guard case .object = body else { throw RESTProblem(400, "the body must be a JSON object") }
    var violations: [FieldViolation] = []
    func text(_ key: String) -> String? {
      switch body[key] {
      case nil, .null?: return nil
      case .string(let value)?: return value
      case let other?:
        violations.append(
          FieldViolation(field: key, description: "must be a string, not \(other.kind)"))
        return nil
      }
    }
    let name = text("name") ?? ""
    let scopeText = text("scope")
    let prefix = text("prefix") ?? ""
    func whole(_ key: String, below limit: Double) -> Double {
      switch body[key] {
      case nil, .null?: return 0
      case .number(let number)? where number >= 0 && number < limit && number.rounded() == number:
        return number
      case let other?:
        violations.append(
          FieldViolation(
            field: key,
            description: "must be a whole number from 0 to \(JSONWriter.format(limit - 1)), "
              + "not \(JSONWriter.compact(other))"))
        return 0
      }
    }
    let expiresInMs = Int64(whole("expires_in_ms", below: 1e15))
    let writeRate = TokenAdministration.writeRate(
      perSecond: UInt32(whole("write_rate_per_s", below: 4_294_967_296)),
      burst: UInt32(whole("write_burst", below: 4_294_967_296)))
    let scope = scopeText.flatMap { Scope(name: $0) }
    violations += TokenAdministration.violations(
      name: name, scope: scope, prefix: prefix, expiresInMs: expiresInMs)
    guard violations.isEmpty else {
      throw RESTProblem(invalid: violations.sorted { $0.field < $1.field })
    }
    let made = administration.create(
      name: name, scope: scope, prefix: prefix, expiresInMs: expiresInMs, writeRate: writeRate)
    switch made {
    case .failure(let failure): throw RESTProblem(failure.problem)
    case .success(let (token, secret)):
      guard case .object(let members) = Self.json(token) else { return HTTPResponse(status: 500) }
      return Self.jsonResponse(201, .object(members + [("secret", .string(secret))]))
    }
  }

  static func json(_ token: AccessToken) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("name", .string(token.name)), ("scope", .string(token.scope.description)),
      ("prefix", .string(token.reach.prefix)),
      ("created", .string(RFC3339Time.format(unixMilliseconds: token.createdMs))),
    ]
    if let used = token.lastUsedMs {
      members.append(("last_used", .string(RFC3339Time.format(unixMilliseconds: used))))
    }
    if let expires = token.expiresMs {
      members.append(("expires", .string(RFC3339Time.format(unixMilliseconds: expires))))
    }
    if let rate = token.writeRate {
      members.append(("write_rate_per_s", .number(rate.perSecond)))
      members.append(("write_burst", .number(rate.burst)))
    }
    return .object(members)
  }

  private static func jsonResponse(_ status: Int, _ value: JSONValue) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["content-type": "application/json", "cache-control": "no-store"],
      body: Array(JSONWriter.compact(value).utf8))
  }
}
