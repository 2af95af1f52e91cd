import GRPCCore
import GRPCTransport

/// StreamingInputCall: sums the payload sizes of every request message and
/// answers the total once the client half-closes. A message that arrived
/// other than its `expect_compressed` says ends the call INVALID_ARGUMENT.
final class StreamingInputHandler: RPCHandler {
  private let call: ServerCall
  private let echo: MetadataEcho
  private var total = 0
  private var index = 0
  private var failed = false

  init(call: ServerCall) {
    self.call = call
    self.echo = MetadataEcho(call.metadata)
    echo.start(call)
  }

  func receive(message: [UInt8]) {
    receive(message: message, compressed: false)
  }

  func receive(message: [UInt8], compressed: Bool) {
    guard !failed else { return }
    defer { index += 1 }
    guard let request = InteropWire.decodeStreamingInputCallRequest(message) else {
      return fail(GRPCStatus(.internal, "could not parse StreamingInputCallRequest \(index)"))
    }
    if let status = RequestRules.checkCompression(
      expected: request.expectCompressed, actual: compressed,
      field: "message \(index): expect_compressed")
    {
      return fail(status)
    }
    total += request.payloadSize
  }

  func receiveEnd() {
    guard !failed else { return }
    call.send(
      message: InteropWire.encodeStreamingInputCallResponse(
        aggregatedPayloadSize: Int32(clamping: total)), compress: false)
    echo.finish(call, .ok)
  }

  func cancel(_ reason: GRPCStatus) {
    failed = true
  }

  private func fail(_ status: GRPCStatus) {
    failed = true
    echo.finish(call, status)
  }
}
