import GRPCCore

/// Adapts a request-in, response-out function to `RPCHandler`: it waits for
/// exactly one request message and the client's half-close, then runs the
/// body, which answers through a `UnaryResponder` now or later, from any
/// thread.
public final class UnaryHandler: RPCHandler {
  public typealias Body = (_ request: [UInt8], _ responder: UnaryResponder) -> Void

  private let call: ServerCall
  private let body: Body
  private var request = UnaryRequest<[UInt8]>()

  public init(call: ServerCall, body: @escaping Body) {
    self.call = call
    self.body = body
  }

  public func receive(message: [UInt8]) {
    request.receive { message }
  }

  public func receiveEnd() {
    switch request.completed {
    case .failure(let status): call.finish(status)
    case .success(let bytes): body(bytes, UnaryResponder(call: call))
    }
  }

  public func cancel(_ reason: GRPCStatus) {}
}

/// The way back for one unary call; usable from any thread, once.
public struct UnaryResponder: Sendable {
  private let call: ServerCall

  init(call: ServerCall) {
    self.call = call
  }

  public var metadata: Metadata { call.metadata }

  public func respond(_ result: Result<[UInt8], GRPCStatus>) {
    let call = self.call
    call.onLoop { Self.complete(call, with: result) }
  }

  /// Sends the response and an OK status, or the failure's status. On the
  /// call's loop only: for handlers that answer there and have no hop to
  /// make (or closure to build).
  package static func complete(_ call: ServerCall, with result: Result<[UInt8], GRPCStatus>) {
    complete(call, with: result.map { _ in () }) { call in
      if case .success(let response) = result { call.send(message: response) }
    }
  }

  /// The same, with the response sent by `send` (`ServerCall.send(messageOfSize:)`
  /// encodes it in place).
  package static func complete(
    _ call: ServerCall, with result: Result<Void, GRPCStatus>, sending send: (ServerCall) -> Void
  ) {
    switch result {
    case .success:
      send(call)
      call.finish(.ok)
    case .failure(let status):
      call.finish(status)
    }
  }
}
