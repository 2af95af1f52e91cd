/// Limits and timers of HTTP/1.1 connections.
public struct HTTP1Configuration: Sendable {
  /// Request line plus header fields.
  public var maxHeadBytes = 16 << 10
  /// A request body, chunked or not.
  public var maxBodyBytes = 1 << 20
  /// From a request's first byte to the end of its head; then 408 and close.
  public var headTimeout: Duration = .seconds(10)
  /// A connection with no request in progress and nothing to send is closed
  /// after this long.
  public var idleTimeout: Duration = .seconds(60)
  /// Requests read ahead of their answers (pipelining); past it, reading
  /// waits until answers go out.
  public var maxPipelinedRequests = 16

  public init() {}
}
