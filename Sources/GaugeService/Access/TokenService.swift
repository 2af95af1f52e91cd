import GRPCCore
import GRPCTransport
import GaugeAuth
import GaugeDomain
import GaugeWire

/// `gauge.v1.TokenService`: tokens made, listed and revoked while gauged
/// runs (admin only, as `AccessRequirement` says). A new token is stored
/// before it is accepted, and a revoked one is refused at once and its
/// live streams end; the store keeps only digests.
public struct TokenService: GRPCService {
  public let serviceName = "gauge.v1.TokenService"
  public var methodNames: [String] { ["CreateToken", "ListTokens", "RevokeToken"] }

  private let registry: TokenRegistry
  /// nil for --memory servers: tokens made here last until gauged stops.
  private let persistence: (any TokenPersistence)?
  private let clock: @Sendable () -> Int64

  public init(
    registry: TokenRegistry, persistence: (any TokenPersistence)?,
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds
  ) {
    self.registry = registry
    self.persistence = persistence
    self.clock = clock
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    switch method {
    case "CreateToken":
      return UnaryHandler(call: call) { [self] request, responder in
        responder.respond(create(request))
      }
    case "ListTokens":
      return UnaryHandler(call: call) { [self] _, responder in
        responder.respond(.success(TokenWire.encodeListTokensResponse(registry.tokens)))
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
    var violations: [FieldViolation] = []
    let name = request.name ?? ""
    if let violation = AccessToken.nameViolation(name) { violations.append(violation) }
    let scope = request.scope.flatMap { Scope(rawValue: Int($0)) }
    if scope == nil {
      violations.append(
        FieldViolation(field: "scope", description: "must be READ, WRITE or ADMIN"))
    }
    if let violation = AccessToken.prefixViolation(request.prefix) { violations.append(violation) }
    if request.expiresInMs < 0 {
      violations.append(
        FieldViolation(field: "expires_in_ms", description: "must not be negative"))
    }
    guard violations.isEmpty, let scope else {
      return .failure(WidgetError.invalid(violations).grpcStatus)
    }
    let secret: String
    do {
      secret = try TokenSecret.generate()
    } catch {
      return .failure(GRPCStatus(.internal, "libcrypto could not make random bytes"))
    }
    let now = clock()
    let token = AccessToken(
      name: name, scope: scope, reach: WidgetReach(prefix: request.prefix),
      digest: .sha256(of: secret), createdMs: now,
      expiresMs: request.expiresInMs > 0 ? now + request.expiresInMs : nil)
    guard registry.add(token) else {
      return .failure(GRPCStatus(.alreadyExists, "a token named \"\(name)\" exists already"))
    }
    do throws(TokenPersistenceError) {
      try persistence?.insert(token)
    } catch {
      _ = registry.revoke(name: name)
      return .failure(GRPCStatus(.unavailable, "the token was not stored: \(error.message)"))
    }
    return .success(TokenWire.encodeCreateTokenResponse(token, secret: secret))
  }

  func revoke(_ bytes: [UInt8]) -> Result<[UInt8], GRPCStatus> {
    let name: String
    switch WireDecoding.decode(bytes, with: TokenWire.decodeRevokeTokenRequest) {
    case .failure(let error):
      return .failure(
        GRPCStatus(.internal, "could not parse the RevokeToken request: \(error.message)"))
    case .success(let decoded): name = decoded
    }
    if let violation = AccessToken.nameViolation(name) {
      return .failure(WidgetError.invalid([violation]).grpcStatus)
    }
    // Refused from now on, even if the store fails below.
    guard registry.revoke(name: name) != nil else {
      return .failure(GRPCStatus(.notFound, "no token is named \"\(name)\""))
    }
    do throws(TokenPersistenceError) {
      try persistence?.remove(name: name)
    } catch {
      return .failure(
        GRPCStatus(
          .unavailable,
          "the token is revoked until gauged restarts, but the store still holds it: "
            + error.message))
    }
    return .success([])
  }
}
