import GRPCCore
import GRPCTransport

/// One reflection stream: every request gets its answer at once, in order;
/// the call ends OK when the client half-closes.
final class ReflectionHandler: RPCHandler {
  private let call: ServerCall
  private let answer: (ReflectionRequest) -> ReflectionAnswer

  init(call: ServerCall, answer: @escaping (ReflectionRequest) -> ReflectionAnswer) {
    self.call = call
    self.answer = answer
  }

  func receive(message: [UInt8]) {
    guard let response = ReflectionWire.respond(to: message, answer: answer) else {
      call.finish(
        GRPCStatus(
          .internal,
          "could not parse the ServerReflectionRequest: not protobuf, or a string with a NUL or not UTF-8"
        ))
      return
    }
    call.send(message: response)
  }

  func receiveEnd() {
    call.finish(.ok)
  }

  func cancel(_ reason: GRPCStatus) {}
}
