import CNATS
import Synchronization

/// The completions of asynchronous puts, found again by their message when
/// JetStream's acknowledgement (or libnats's failure report) arrives on
/// libnats's thread.
final class PublishAcks: Sendable {
  typealias Completion = @Sendable (Result<UInt64, NATSError>) -> Void

  /// Keyed by the address of the message libnats holds until it hands it
  /// back to `publishAcknowledged`; the entry goes before the message is
  /// destroyed, so an address is never in use twice.
  private let waiting = Mutex<[UInt: Completion]>([:])

  func add(_ message: OpaquePointer, _ completion: @escaping Completion) {
    waiting.withLock { $0[UInt(bitPattern: message)] = completion }
  }

  func take(_ message: OpaquePointer) -> Completion? {
    waiting.withLock { $0.removeValue(forKey: UInt(bitPattern: message)) }
  }

  var count: Int { waiting.withLock { $0.count } }

  /// Waits up to `waitingMs` for the acknowledgements still due, then
  /// takes the puts libnats still holds back from it and fails them: after
  /// this, libnats has nothing left to call back about.
  func failAll(pendingIn jetStream: OpaquePointer, waitingMs: Int64) {
    guard count > 0 else { return }
    var options = jsPubOptions()
    jsPubOptions_Init(&options)
    options.MaxWait = waitingMs
    _ = js_PublishAsyncComplete(jetStream, &options)
    var pending = natsMsgList()
    guard js_PublishAsyncGetPendingList(&pending, jetStream) == NATS_OK else { return }
    defer { natsMsgList_Destroy(&pending) }
    let closed = NATSError(
      operation: "put", kind: .unavailable,
      detail: "the connection closed before JetStream answered")
    for index in 0..<Int(pending.Count) {
      guard let message = pending.Msgs[index] else { continue }
      take(message)?(.failure(closed))
    }
  }
}

/// libnats's acknowledgement handler for asynchronous puts, on its thread.
/// `closure` is the bucket's `PublishAcks`, which lives as long as the
/// JetStream context; the message is ours to destroy.
func publishAcknowledged(
  _ jetStream: OpaquePointer?, _ message: OpaquePointer?,
  _ acknowledgement: UnsafeMutablePointer<jsPubAck>?,
  _ failure: UnsafeMutablePointer<jsPubAckErr>?, _ closure: UnsafeMutableRawPointer?
) {
  guard let message else { return }
  defer { natsMsg_Destroy(message) }
  guard let closure else { return }
  let acks = Unmanaged<PublishAcks>.fromOpaque(closure).takeUnretainedValue()
  guard let completion = acks.take(message) else { return }
  if let acknowledgement {
    completion(.success(acknowledgement.pointee.Sequence))
  } else if let failure {
    let code = failure.pointee.ErrCode
    let detail = failure.pointee.ErrText.map { String(cString: $0) } ?? ""
    completion(
      .failure(
        NATSError(
          operation: "put", kind: NATSError.classify(failure.pointee.Err, jetStreamCode: code),
          status: Int32(failure.pointee.Err.rawValue), jetStreamCode: Int32(code.rawValue),
          detail: detail.isEmpty ? String(cString: natsStatus_GetText(failure.pointee.Err)) : detail
        )))
  } else {
    completion(.failure(NATSError(operation: "put", kind: .failed, detail: "no acknowledgement")))
  }
}
