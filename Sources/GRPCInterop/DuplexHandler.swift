import GRPCCore
import GRPCTransport

/// FullDuplexCall answers each request's response parameters as it
/// arrives; HalfDuplexCall holds every request until the client
/// half-closes. Either way the call ends OK once the client has half-closed
/// and every response is out, or at once with a request's response_status.
final class DuplexHandler: RPCHandler {
  private let call: ServerCall
  private let echo: MetadataEcho
  private let holdUntilHalfClose: Bool
  private let responses: ResponseStream
  private var held: [StreamingOutputCallRequest] = []
  private var halfClosed = false
  private var done = false

  init(call: ServerCall, holdUntilHalfClose: Bool) {
    self.call = call
    self.echo = MetadataEcho(call.metadata)
    self.holdUntilHalfClose = holdUntilHalfClose
    self.responses = ResponseStream(call: call)
    echo.start(call)
    responses.whenIdle = { [weak self] in self?.finishIfDone() }
  }

  func receive(message: [UInt8]) {
    guard !done else { return }
    guard let request = InteropWire.decodeStreamingOutputCallRequest(message) else {
      return end(GRPCStatus(.internal, "could not parse the StreamingOutputCallRequest"))
    }
    if let status = check(request) { return end(status) }
    if holdUntilHalfClose {
      held.append(request)
    } else {
      responses.append(request.responseParameters)
    }
  }

  func receiveEnd() {
    guard !done else { return }
    let requests = held
    held = []
    responses.append(requests.flatMap(\.responseParameters))
    halfClosed = true
    finishIfDone()
  }

  func cancel(_ reason: GRPCStatus) {
    done = true
    responses.stop()
  }

  private func check(_ request: StreamingOutputCallRequest) -> GRPCStatus? {
    if let status = RequestRules.echoedStatus(request.responseStatus) { return status }
    if let status = RequestRules.checkResponseType(request.responseType) { return status }
    for (index, parameters) in request.responseParameters.enumerated() {
      if let status = RequestRules.checkSize(
        parameters.size, field: "response_parameters[\(index)].size")
      {
        return status
      }
    }
    return nil
  }

  private func finishIfDone() {
    guard !done, halfClosed, responses.isIdle else { return }
    end(.ok)
  }

  private func end(_ status: GRPCStatus) {
    done = true
    responses.stop()
    echo.finish(call, status)
  }
}
