/// Adapts a request-in, response-out function to `RPCHandler`: it waits for
/// exactly one request message and the client's half-close.
public final class UnaryHandler: RPCHandler {
  public typealias Body = (_ request: [UInt8], _ call: ServerCall) -> Result<[UInt8], GRPCStatus>

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
    guard !tooMany else {
      call.finish(GRPCStatus(.unimplemented, "unary method received more than one request message"))
      return
    }
    guard let request else {
      call.finish(GRPCStatus(.unimplemented, "unary method received no request message"))
      return
    }
    switch body(request, call) {
    case .success(let response):
      call.send(message: response)
      call.finish(.ok)
    case .failure(let status):
      call.finish(status)
    }
  }

  public func cancel(_ reason: GRPCStatus) {}
}
