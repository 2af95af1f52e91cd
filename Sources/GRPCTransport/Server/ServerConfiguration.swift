/// Limits and identity of a server; the defaults are what stock gRPC
/// servers use.
public struct ServerConfiguration: Sendable {
  /// Largest request message accepted, checked on the announced length and
  /// again while a compressed message is inflated.
  public var maxReceiveMessageBytes = 4 << 20
  /// Gzip response messages when the client's `grpc-accept-encoding` allows
  /// it; handlers may still send single messages uncompressed.
  public var compressResponses = false
  public var maxConcurrentStreams: UInt32 = 1000
  /// Sum over request headers of name + value + 32, as HTTP/2 counts it.
  public var maxHeaderListBytes = 16 << 10
  /// Name and version for the `server` banner.
  public var serverName = "gauged"

  public init() {}
}
