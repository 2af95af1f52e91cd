import GRPCClient
import GRPCCore

/// A unary call's response, gathered on the loop.
final class UnaryCollector: ClientCallHandler {
  private var messages: [[UInt8]] = []
  private let completion: (Result<[UInt8], GaugeError>) -> Void

  init(completion: @escaping (Result<[UInt8], GaugeError>) -> Void) {
    self.completion = completion
  }

  func received(message: [UInt8]) {
    messages.append(message)
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    guard status.code == .ok else { return completion(.failure(GaugeError(status: status))) }
    guard messages.count == 1 else {
      return completion(
        .failure(
          GaugeError(
            code: .internal,
            message: "expected one response message, the server sent \(messages.count)")))
    }
    completion(.success(messages[0]))
  }
}

/// Where a call started from an async task lives on the loop, so that
/// cancelling the task can reset it.
// @unchecked Sendable: touched on the loop thread only.
final class CallSlot: @unchecked Sendable {
  var call: ClientCall?
  var cancelled = false
}

extension ConnectionKeeper {
  /// Runs one unary call from an async task without blocking a thread:
  /// the call starts on the loop and its end resumes the task. Cancelling
  /// the task resets the stream (RST_STREAM CANCEL).
  func unary(
    path: String, request: [UInt8], timeout: Duration?
  ) async throws(GaugeError) -> [UInt8] {
    let slot = CallSlot()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<[UInt8], GaugeError>, Never>) in
        loop.execute { [self] in
          guard !slot.cancelled else { return continuation.resume(returning: .failure(.cancelled)) }
          let handler = UnaryCollector { continuation.resume(returning: $0) }
          switch makeCall(path: path, timeout: timeout, handler: handler) {
          case .failure(let error):
            continuation.resume(returning: .failure(error))
          case .success(let call):
            slot.call = call
            call.send(request)
            call.closeSend()
          }
        }
      }
    } onCancel: {
      loop.execute {
        slot.cancelled = true
        slot.call?.cancel()
      }
    }
    if case .failure(let error) = result, error.code == .cancelled, slot.cancelled {
      throw .cancelled
    }
    return try result.get()
  }
}
