import GRPCCore

/// The server side of one call, created by a service for each stream.
/// Every method is called on the call's event loop, in this order:
/// any number of `receive(message:)`, then `receiveEnd()` when the client
/// half-closes, or `cancel(_:)` at any point once the call can no longer
/// complete (client reset, deadline passed, connection lost, shutdown).
public protocol RPCHandler: AnyObject {
  func receive(message: [UInt8])
  /// The same, for handlers that care whether the message travelled
  /// compressed; by default it forwards to `receive(message:)`.
  func receive(message: [UInt8], compressed: Bool)
  /// The same, for an uncompressed message that arrived whole in one DATA
  /// frame: `bytes` are valid only during the call. A handler that decodes
  /// at once reads them in place; by default they are copied and forwarded
  /// to `receive(message:compressed:)`.
  func receive(messageBytes bytes: UnsafeRawBufferPointer)
  /// The messages that arrived together (one DATA frame's worth) have all
  /// been passed to `receive`: a handler that batches its work applies the
  /// batch now. By default nothing happens.
  func receiveBatchEnd()
  func receiveEnd()
  func cancel(_ reason: GRPCStatus)
  /// The server has begun a graceful shutdown. A call that would otherwise
  /// run for the whole grace period (a subscription) can end now, so its
  /// client moves on at once; by default nothing happens and the call gets
  /// the grace period to finish.
  func serverShutdownBegan()
}

extension RPCHandler {
  public func receive(message: [UInt8], compressed: Bool) {
    receive(message: message)
  }

  public func receive(messageBytes bytes: UnsafeRawBufferPointer) {
    receive(message: Array(bytes), compressed: false)
  }

  public func serverShutdownBegan() {}

  public func receiveBatchEnd() {}
}

/// A service answers one gRPC service name (`gauge.v1.WidgetService`).
public protocol GRPCService: Sendable {
  var serviceName: String { get }
  var methodNames: [String] { get }
  /// nil when the method is unknown: the caller gets UNIMPLEMENTED.
  func makeHandler(method: String, call: ServerCall) -> RPCHandler?
}
