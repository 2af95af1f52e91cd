import GaugeTLS

/// TLS for a client connection: whom to trust and which name the server's
/// certificate must carry (also sent as SNI unless it is an address).
public struct ClientTLS: Sendable {
  public let context: TLSContext
  public let serverName: String

  public init(context: TLSContext, serverName: String) {
    self.context = context
    self.serverName = serverName
  }

  /// Trusting the CA certificates in the PEM file `caFile`, or the system's
  /// without one; the server named by `target`'s host (`localhost:50051`,
  /// `[::1]:50051`, `10.0.0.7:443`).
  public init(target: String, caFile: String? = nil) throws(TLSFailure) {
    self.init(context: try TLSContext.client(caFile: caFile), serverName: Self.host(of: target))
  }

  /// The host part of `HOST:PORT` or `[IPv6]:PORT`.
  static func host(of target: String) -> String {
    if target.hasPrefix("["), let close = target.firstIndex(of: "]") {
      return String(target[target.index(after: target.startIndex)..<close])
    }
    guard let colon = target.lastIndex(of: ":") else { return target }
    return String(target[..<colon])
  }
}
