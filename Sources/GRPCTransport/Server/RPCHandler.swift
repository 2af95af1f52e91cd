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
  func receiveEnd()
  func cancel(_ reason: GRPCStatus)
}

extension RPCHandler {
  public func receive(message: [UInt8], compressed: Bool) {
    receive(message: message)
  }
}

/// A service answers one gRPC service name (`gauge.v1.WidgetService`).
public protocol GRPCService: Sendable {
  var serviceName: String { get }
  var methodNames: [String] { get }
  /// nil when the method is unknown: the caller gets UNIMPLEMENTED.
  func makeHandler(method: String, call: ServerCall) -> RPCHandler?
}
