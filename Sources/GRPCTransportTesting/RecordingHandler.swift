import GRPCCore
import GRPCTransport

/// A handler that records what the transport tells it (messages, the end
/// of the request, a cancellation), with hooks for a test to script its
/// answer.
public final class RecordingHandler: RPCHandler {
  public let call: ServerCall
  public var messages: [[UInt8]] = []
  public var ended = false
  public var cancelled: GRPCStatus?
  public var onMessage: ((RecordingHandler, [UInt8]) -> Void)?
  public var onEnd: ((RecordingHandler) -> Void)?

  public init(call: ServerCall) {
    self.call = call
  }

  public func receive(message: [UInt8]) {
    messages.append(message)
    onMessage?(self, message)
  }

  public func receiveEnd() {
    ended = true
    onEnd?(self)
  }

  public func cancel(_ reason: GRPCStatus) {
    cancelled = reason
  }
}
