/// Adapts a request-in, response-out function to `RPCHandler`: it waits for
/// exactly one request message and the client's half-close, then runs the
/// body, which answers through a `UnaryResponder` now or later, from any
/// thread.
public final class UnaryHandler: RPCHandler {
  public typealias Body = (_ request: [UInt8], _ responder: UnaryResponder) -> Void

  private let call: ServerCall
  private let body: Body
  private var request: [UInt8]?
  private var tooMany = false

  public init(call: ServerCall, body: @escaping Body) {
    self.call = call
    self.body = body
  }

  public func receive(message: [UInt8]) {
    if request == nil { request = message } else { tooMany = true }
  }

  public func receiveEnd() {
    guard !tooMany else { return call.finish(Self.moreThanOneRequest) }
    guard let request else { return call.finish(Self.noRequest) }
    body(request, UnaryResponder(call: call))
  }

  /// What a unary method answers when the client sent more than one
  /// request message, or none (as grpc-core servers do).
  public static let moreThanOneRequest = GRPCStatus(
    .unimplemented, "unary method received more than one request message")
  public static let noRequest = GRPCStatus(
    .unimplemented, "unary method received no request message")

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
    call.onLoop {
      switch result {
      case .success(let response):
        call.send(message: response)
        call.finish(.ok)
      case .failure(let status):
        call.finish(status)
      }
    }
  }
}
