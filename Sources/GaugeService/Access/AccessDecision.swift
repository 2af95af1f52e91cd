import GRPCCore
import GRPCTransport
import GaugeDomain

/// What the gate decided about one request.
public enum AccessDecision: Sendable, Equatable {
  case granted(AccessGrant)
  case refused(AccessRefusal)
}

/// What a granted request may see, and whose token it came with. A class:
/// every call of a connection with the same token shares the one its
/// credential memo keeps, where copying the fields cost more than the check.
public final class AccessGrant: Sendable, Equatable {
  public let reach: WidgetReach
  /// nil when the server asks for no token (or the route is open).
  public let tokenName: String?
  /// Whose rate-limit buckets the request spends: its token's, or its
  /// client address's when it has no token and such callers are limited;
  /// nil for none.
  public let rateKey: String?
  /// The token's own write rate limit; nil: the server's.
  public let writeRate: TokenBucket.Rate?

  public init(
    reach: WidgetReach, tokenName: String?, rateKey: String? = nil,
    writeRate: TokenBucket.Rate? = nil
  ) {
    self.reach = reach
    self.tokenName = tokenName
    self.rateKey = rateKey ?? tokenName
    self.writeRate = writeRate
  }

  /// This grant, its buckets those of `rateKey` (a client address).
  public func spending(_ rateKey: String?) -> AccessGrant {
    AccessGrant(reach: reach, tokenName: tokenName, rateKey: rateKey, writeRate: writeRate)
  }

  public static func == (left: AccessGrant, right: AccessGrant) -> Bool {
    left.reach == right.reach && left.tokenName == right.tokenName
      && left.rateKey == right.rateKey && left.writeRate == right.writeRate
  }

  public static let everything = AccessGrant(reach: .everything, tokenName: nil)
}

/// Why a request was refused, as each face says it.
public enum AccessRefusal: Sendable, Equatable {
  /// No token, an unknown one, or an expired one.
  case unauthenticated(String)
  /// A valid token without the scope the method needs.
  case forbidden(String)

  /// Managing tokens on a server that serves without them where other
  /// machines reach it: whoever made the first token would lock everyone
  /// else out.
  public static let tokensOffline = AccessRefusal.forbidden(
    "this gauged serves without tokens; make the first one offline (gauged token create NAME"
      + " --scope admin --data-dir DIR) and restart it")

  public var message: String {
    switch self {
    case .unauthenticated(let message), .forbidden(let message): message
    }
  }

  public var grpcStatus: GRPCStatus {
    switch self {
    case .unauthenticated(let message): GRPCStatus(.unauthenticated, message)
    case .forbidden(let message): GRPCStatus(.permissionDenied, message)
    }
  }

  /// 401 with `WWW-Authenticate: Bearer`, or 403.
  public var problem: ProblemDetails {
    switch self {
    case .unauthenticated(let message):
      ProblemDetails(status: 401, detail: message, headers: ["www-authenticate": "Bearer"])
    case .forbidden(let message):
      ProblemDetails(status: 403, detail: message)
    }
  }
}
