import GRPCClient
import GRPCCore
import GRPCTransport

/// One call of a program, as its client saw it, checked against the
/// handler contract: messages, then exactly one finish.
final class RecordedCall: ClientCallHandler {
  let path: String
  /// Subscribe and Watch: they end only when the client cancels them.
  let isOpenEnded: Bool
  var call: ClientCall?
  /// The first message the client sent: a Subscribe's filter.
  private(set) var firstRequest: [UInt8]?
  private(set) var status: GRPCStatus?
  private(set) var messages: [[UInt8]] = []
  private(set) var breaches: [String] = []

  init(path: String) {
    self.path = path
    isOpenEnded = path.hasSuffix("/Subscribe") || path.hasSuffix("/Watch")
  }

  var isFinished: Bool { status != nil }

  func send(_ message: [UInt8]) {
    if firstRequest == nil { firstRequest = message }
    call?.send(message)
  }

  func received(message: [UInt8]) {
    if status != nil { breaches.append("\(path): a message after the call finished") }
    messages.append(message)
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    if let earlier = self.status {
      breaches.append("\(path): finished twice, with \(earlier) and then \(status)")
    }
    self.status = status
  }
}
