import GRPCCore
import GRPCTransport

/// Waits for exactly one request message and the client's half-close, then
/// runs the body with the message and whether it arrived compressed: the
/// shape of unary and server-streaming calls.
final class SingleRequestHandler: RPCHandler {
  typealias Body = (_ request: [UInt8], _ compressed: Bool) -> Void

  private let call: ServerCall
  private let body: Body
  private var request: (bytes: [UInt8], compressed: Bool)?
  private var count = 0
  private var onCancel: (() -> Void)?

  init(call: ServerCall, body: @escaping Body) {
    self.call = call
    self.body = body
  }

  func receive(message: [UInt8]) {
    receive(message: message, compressed: false)
  }

  func receive(message: [UInt8], compressed: Bool) {
    count += 1
    if request == nil { request = (message, compressed) }
  }

  func receiveEnd() {
    guard count == 1, let request else {
      return call.finish(
        GRPCStatus(.unimplemented, "\(call.method) takes exactly one request message, got \(count)")
      )
    }
    body(request.bytes, request.compressed)
  }

  /// What to stop when the call is cancelled (a stream still sending).
  func whenCancelled(_ work: @escaping () -> Void) {
    onCancel = work
  }

  func cancel(_ reason: GRPCStatus) {
    onCancel?()
  }
}
