import GRPCCore

/// Everything a finished call returned.
public struct ClientResponse: Sendable {
  public var status: GRPCStatus
  /// Custom metadata of the response headers (empty for trailers-only).
  public var headers: Metadata
  public var messages: [[UInt8]]
  public var trailers: Metadata

  public init(
    status: GRPCStatus, headers: Metadata = Metadata(), messages: [[UInt8]] = [],
    trailers: Metadata = Metadata()
  ) {
    self.status = status
    self.headers = headers
    self.messages = messages
    self.trailers = trailers
  }

  /// The one message of a successful unary (or client-streaming) call; the
  /// status when the call failed, INTERNAL when an OK call did not carry
  /// exactly one message.
  public func singleMessage() throws(GRPCStatus) -> [UInt8] {
    guard status.code == .ok else { throw status }
    guard messages.count == 1 else {
      throw GRPCStatus(
        .internal, "expected one response message, the server sent \(messages.count)")
    }
    return messages[0]
  }
}

/// Keeps every message and reports the whole response once the call ends;
/// unary and client-streaming calls use it.
final class ResponseCollector: ClientCallHandler {
  private var response = ClientResponse(status: .ok)
  private let onMessage: (([UInt8]) -> Void)?
  private let completion: (ClientResponse) -> Void

  /// With `onMessage` the messages are handed over as they arrive and not kept.
  init(onMessage: (([UInt8]) -> Void)? = nil, completion: @escaping (ClientResponse) -> Void) {
    self.onMessage = onMessage
    self.completion = completion
  }

  func received(headers: Metadata) {
    response.headers = headers
  }

  func received(message: [UInt8]) {
    if let onMessage {
      onMessage(message)
    } else {
      response.messages.append(message)
    }
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    response.status = status
    response.trailers = trailers
    completion(response)
  }
}
