import GRPCCore

/// The caller's side of one client call. Every method runs on the
/// connection's event loop (or whatever thread drives the connection), in
/// this order: `received(headers:)` at most once, any number of
/// `received(message:)`, then `finished(status:trailers:)` exactly once.
/// `readyForMoreMessages()` may come at any time before `finished`.
public protocol ClientCallHandler: AnyObject {
  /// The server's response headers, custom metadata only. Not called for a
  /// trailers-only response (an error before any message).
  func received(headers: Metadata)
  func received(message: [UInt8])
  /// The same, for a message that arrived whole in one DATA frame: `bytes`
  /// are valid only during the call. A handler that reads a message at once
  /// reads it in place; by default it is copied and forwarded to
  /// `received(message:)`.
  func received(messageBytes bytes: UnsafeRawBufferPointer)
  /// Every request message queued so far has been handed to HTTP/2 and flow
  /// control would take more: the moment for a producer that keeps its own
  /// backlog to send the next batch.
  func readyForMoreMessages()
  /// The call is over: the server's status (or a local one for deadlines,
  /// cancellation and lost connections) and its trailing metadata.
  func finished(status: GRPCStatus, trailers: Metadata)
}

extension ClientCallHandler {
  public func received(headers: Metadata) {}
  public func readyForMoreMessages() {}
  public func received(messageBytes bytes: UnsafeRawBufferPointer) {
    received(message: Array(bytes))
  }
}

/// A handler made of closures, for callers that would rather not declare a
/// class per call.
public final class CallbackCallHandler: ClientCallHandler {
  private let onHeaders: (Metadata) -> Void
  private let onMessage: ([UInt8]) -> Void
  private let onReady: () -> Void
  private let onFinish: (GRPCStatus, Metadata) -> Void

  public init(
    onHeaders: @escaping (Metadata) -> Void = { _ in },
    onMessage: @escaping ([UInt8]) -> Void = { _ in },
    onReady: @escaping () -> Void = {},
    onFinish: @escaping (GRPCStatus, Metadata) -> Void
  ) {
    self.onHeaders = onHeaders
    self.onMessage = onMessage
    self.onReady = onReady
    self.onFinish = onFinish
  }

  public func received(headers: Metadata) { onHeaders(headers) }
  public func received(message: [UInt8]) { onMessage(message) }
  public func readyForMoreMessages() { onReady() }
  public func finished(status: GRPCStatus, trailers: Metadata) { onFinish(status, trailers) }
}
