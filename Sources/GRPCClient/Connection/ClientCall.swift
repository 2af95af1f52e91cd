import GRPCCore

/// The caller's handle on one call: send request messages, half-close,
/// cancel. Bound to its connection's thread; every method must be called
/// there. Responses arrive through the call's `ClientCallHandler`.
public final class ClientCall {
  /// `/package.Service/Method`.
  public let path: String
  /// The HTTP/2 stream, or 0 when the call never got one.
  public let streamID: Int32
  public internal(set) var isFinished = false
  /// The connection through its `BackReference`: a weak reference would
  /// put the connection on slow reference counting for every message.
  private let connectionReference: BackReference<GRPCClientConnection>
  var connection: GRPCClientConnection? { connectionReference.target }

  init(path: String, streamID: Int32, connection: BackReference<GRPCClientConnection>) {
    self.path = path
    self.streamID = streamID
    self.connectionReference = connection
  }

  /// Queues one request message; ignored once the call finished or the
  /// sending side was closed.
  public func send(_ message: [UInt8]) {
    guard !isFinished else { return }
    connection?.send(message, on: self)
  }

  /// Queues request messages already framed (`MessageFramer`'s prefix,
  /// uncompressed, then the message, one after another): a producer that
  /// batches many small messages hands them over with one copy. Ignored
  /// like `send`.
  public func send(framedMessages: [UInt8]) {
    guard !isFinished else { return }
    connection?.send(framedMessages: framedMessages, on: self)
  }

  /// No more request messages: the request ends (END_STREAM) after the
  /// ones queued.
  public func closeSend() {
    guard !isFinished else { return }
    connection?.closeSend(on: self)
  }

  /// Ends the call now: the stream is reset and the handler finishes with
  /// CANCELLED.
  public func cancel() {
    guard !isFinished else { return }
    connection?.cancel(self, GRPCStatus(.cancelled, "cancelled by the client"))
  }

  /// Request bytes queued that HTTP/2 has not taken yet (held back by flow
  /// control, or not yet written).
  public var pendingOutboundBytes: Int {
    connection?.pendingOutboundBytes(of: self) ?? 0
  }
}
