import GRPCCore

/// Limits and identity of a client connection.
public struct ClientConfiguration: Sendable {
  /// Largest response message accepted, checked on the announced length.
  public var maxReceiveMessageBytes = 4 << 20
  /// How much of each response stream the server may send ahead of us.
  public var initialWindowSize: UInt32 = 1 << 20
  /// The same for the whole connection.
  public var connectionWindowSize: Int32 = 8 << 20
  /// Sum over response headers (or trailers) of name + value + 32.
  public var maxHeaderListBytes = 64 << 10
  public var userAgent = "gauge-grpc-client/0.1"
  /// With gzip, request messages go compressed (`grpc-encoding`) and the
  /// server may compress responses (`grpc-accept-encoding`); identity
  /// sends neither header.
  public var compression = CompressionAlgorithm.identity
  /// nil: cleartext HTTP/2 with prior knowledge (h2c).
  public var tls: ClientTLS?

  public init() {}
}
