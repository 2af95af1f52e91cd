import GRPCCore

/// One request's way back to its client, owned by the session that
/// carries it and used on that session's loop only. A face answers once
/// with `respond`, or opens a stream (Server-Sent Events) with
/// `startStream`, writes to it, and ends it with `finish`.
public protocol HTTPExchange: AnyObject {
  /// A whole response. Ignored after the first answer.
  func respond(_ response: HTTPResponse)
  /// Sends the head of a response whose body follows in pieces (chunked
  /// in HTTP/1.1, DATA frames in HTTP/2).
  func startStream(status: Int, headers: HTTPFields)
  /// Queues body bytes of a started stream.
  func write(_ bytes: [UInt8])
  /// Ends a started stream.
  func finish()
  /// Bytes written and not yet taken by the socket: a streaming face stops
  /// encoding past its own low-water mark and waits for `onOutboundDrained`.
  var pendingOutboundBytes: Int { get }
  /// Called on the loop when queued output has gone to the socket.
  var onOutboundDrained: (() -> Void)? { get set }
  /// Called on the loop once if the exchange ends before the face finished
  /// (the peer left, the server is stopping): release what it holds.
  var onCancel: (() -> Void)? { get set }
  /// The loop this exchange lives on, for work from other threads and timers.
  var scheduler: any CallScheduler { get }
  /// True once the exchange is over (answered, finished or cancelled).
  var isFinished: Bool { get }
  /// The counters of the loop this exchange lives on, when the server
  /// keeps metrics; nil by default.
  var metrics: LoopMetrics? { get }
  /// The client's address, known when the server writes an access log;
  /// nil by default.
  var peer: String? { get }
  /// The connection's memo of the credential its requests repeat; nil by
  /// default.
  var credentialMemo: CredentialMemo? { get }
}

extension HTTPExchange {
  public var metrics: LoopMetrics? { nil }
  public var peer: String? { nil }
  public var credentialMemo: CredentialMemo? { nil }
}

/// What answers the requests that are not gRPC calls: the HTTP faces
/// (REST, Server-Sent Events, the page at `/`), chosen by path and method.
/// Called on the session's loop; it may answer at once or later, on the
/// same loop, through the exchange.
public protocol HTTPResponder: Sendable {
  func handle(_ request: HTTPRequest, exchange: any HTTPExchange)
  /// Whether requests to a gRPC method's path that are not native gRPC
  /// (gRPC-Web, Connect, their preflights) are this responder's to answer;
  /// otherwise the transport tells them what gRPC needs. False by default.
  var answersWebRPC: Bool { get }
}

extension HTTPResponder {
  public var answersWebRPC: Bool { false }
}
