import GRPCClient
import GRPCCore

/// A publisher's call on the loop: the call, the values handed to it
/// whose credits are still out, and the response once it came. Used on
/// the loop thread only.
// @unchecked Sendable: carried into `loop.execute`, used only on the loop.
final class PublisherCallState: @unchecked Sendable, ClientCallHandler {
  var call: ClientCall?
  /// Values queued on the call since HTTP/2 last took everything.
  var unconfirmed = 0
  private var message: [UInt8]?
  private(set) var outcome: Result<[UInt8], GaugeError>?
  private var waiter: ((Result<[UInt8], GaugeError>) -> Void)?
  /// Credits back to the producers.
  private let onCredits: (Int) -> Void
  /// The call ended; producers must stop.
  private let onEnd: (GaugeError?) -> Void

  init(onCredits: @escaping (Int) -> Void, onEnd: @escaping (GaugeError?) -> Void) {
    self.onCredits = onCredits
    self.onEnd = onEnd
  }

  func readyForMoreMessages() {
    guard unconfirmed > 0 else { return }
    let count = unconfirmed
    unconfirmed = 0
    onCredits(count)
  }

  func received(message: [UInt8]) {
    self.message = message
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    call = nil
    let outcome: Result<[UInt8], GaugeError>
    if status.code != .ok {
      outcome = .failure(GaugeError(status: status))
    } else if let message {
      outcome = .success(message)
    } else {
      outcome = .failure(
        GaugeError(code: .internal, message: "PublishValues ended without a summary"))
    }
    end(outcome)
  }

  /// The call could not start, or ended: producers wake, `finish` returns.
  func end(_ outcome: Result<[UInt8], GaugeError>) {
    guard self.outcome == nil else { return }
    self.outcome = outcome
    if case .failure(let error) = outcome { onEnd(error) } else { onEnd(nil) }
    waiter?(outcome)
    waiter = nil
  }

  /// Calls `waiter` with the outcome, now or when the call ends.
  func whenEnded(_ waiter: @escaping (Result<[UInt8], GaugeError>) -> Void) {
    if let outcome { return waiter(outcome) }
    self.waiter = waiter
  }
}
