import GRPCCore
import GRPCTransport
import GaugeAuth
import GaugeDomain
import GaugeWire

/// `gauge.v1.TokenService`: tokens made, listed and revoked while gauged
/// runs (admin only, as `AccessRequirement` says), through
/// `TokenAdministration`.
public struct TokenService: GRPCService {
  public let serviceName = "gauge.v1.TokenService"
  public var methodNames: [String] { ["CreateToken", "ListTokens", "RevokeToken"] }

  private let administration: TokenAdministration

  public init(administration: TokenAdministration) {
    self.administration = administration
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    switch method {
    case "CreateToken":
      return UnaryHandler(call: call) { [self] request, responder in
        responder.respond(create(request))
      }
    case "ListTokens":
      return UnaryHandler(call: call) { [self] _, responder in
        responder.respond(
          .success(TokenWire.encodeListTokensResponse(administration.registry.tokens)))
      }
    case "RevokeToken":
      return UnaryHandler(call: call) { [self] request, responder in
        responder.respond(revoke(request))
      }
    default:
      return nil
    }
  }

  func create(_ bytes: [UInt8]) -> Result<[UInt8], GRPCStatus> {
    let request: TokenWire.CreateRequest
    switch WireDecoding.decode(bytes, with: TokenWire.decodeCreateTokenRequest) {
    case .failure(let error):
      return .failure(
        GRPCStatus(.internal, "could not parse the CreateToken request: \(error.message)"))
    case .success(let decoded): request = decoded
    }
    return administration.create(
      name: request.name ?? "", scope: request.scope.flatMap { Scope(rawValue: Int($0)) },
      prefix: request.prefix, expiresInMs: request.expiresInMs,
      writeRate: TokenAdministration.writeRate(
        perSecond: request.writeRatePerSecond, burst: request.writeBurst)
    )
    .map { TokenWire.encodeCreateTokenResponse($0.token, secret: $0.secret) }
    .mapError(\.grpcStatus)
  }

  func revoke(_ bytes: [UInt8]) -> Result<[UInt8], GRPCStatus> {
    switch WireDecoding.decode(bytes, with: TokenWire.decodeRevokeTokenRequest) {
    case .failure(let error):
      return .failure(
        GRPCStatus(.internal, "could not parse the RevokeToken request: \(error.message)"))
    case .success(let name):
      return administration.revoke(name: name).map { [] }.mapError(\.grpcStatus)
    }
  }
}

extension TokenAdministration.Failure {
  var grpcStatus: GRPCStatus {
    switch self {
    case .invalid(let violations): WidgetError.invalid(violations).grpcStatus
    case .alreadyExists(let message): GRPCStatus(.alreadyExists, message)
    case .notFound(let message): GRPCStatus(.notFound, message)
    case .unavailable(let message): GRPCStatus(.unavailable, message)
    }
  }

  var problem: ProblemDetails {
    switch self {
    case .invalid(let violations): RESTProblem(invalid: violations).details
    case .alreadyExists(let message): ProblemDetails(status: 409, detail: message)
    case .notFound(let message): ProblemDetails(status: 404, detail: message)
    case .unavailable(let message): ProblemDetails(status: 503, detail: message)
    }
  }
}
