import GaugeLog
import HTTP2

/// Limits, timers and identity of a server; the defaults are what stock
/// gRPC servers use.
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
  /// Calls whose handlers still hold work, per connection, counting those
  /// the peer has already reset; streams over it are refused. Defaults to
  /// `maxConcurrentStreams`.
  public var maxCallsInFlight: Int?
  /// Response bytes queued on one stream that the peer has not taken yet;
  /// a handler queuing more gets its stream reset.
  public var maxStreamBufferBytes = 8 << 20
  /// Bytes one connection may hold for its peer: queued responses plus
  /// partly received request messages. Over it, the connection is closed.
  public var maxConnectionBufferBytes = 64 << 20
  /// Name and version for the `server` banner.
  public var serverName = "gauged"
  /// Whether each connection learns its peer's address (`getpeername`,
  /// once per connection) for the faces, not only for the access log:
  /// rate limits by client address need it.
  public var recordsPeers = false
  public var keepalive = Keepalive()
  /// A connection without streams for this long is closed; nil keeps it.
  public var idleTimeout: Duration? = .seconds(300)
  /// A connection that owes its peer bytes and cannot send any of them
  /// (the peer stopped reading, or holds its flow-control window shut)
  /// for this long is closed; nil waits forever.
  public var writeStallTimeout: Duration? = .seconds(60)
  /// Limits and timers of HTTP/1.1 connections.
  public var http1 = HTTP1Configuration()
  /// Where the server's own events go (a listener that stops accepting).
  public var log = EventLog.standard

  /// Pings, both ways, as grpc-core does them (`doc/keepalive.md`).
  public struct Keepalive: Sendable {
    /// How often the server pings a quiet peer; nil never.
    public var interval: Duration?
    /// How long a ping may go unanswered before the peer counts as dead.
    public var timeout: Duration = .seconds(20)
    /// Pings closer together than this, while the server sends no data,
    /// are strikes. Without streams the bar is two hours, as in grpc-core.
    public var minReceivedPingInterval: Duration = .seconds(300)
    /// Strikes tolerated; one more ends the connection with GOAWAY
    /// ENHANCE_YOUR_CALM "too_many_pings". 0 tolerates any number.
    public var maxPingStrikes = 2

    public init() {}
  }

  /// HTTP/2 flood limits, and which of them to leave to libnghttp2 when it
  /// has them (tests narrow it to exercise gauged's own counting).
  var floodLimits = FloodLimits()
  var libraryFloodChecks = FloodChecks.all

  public init() {}

  var callsInFlightLimit: Int { maxCallsInFlight ?? Int(maxConcurrentStreams) }
}
