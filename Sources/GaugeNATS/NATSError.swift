import CNATS

/// Every failure of the NATS layer: which operation, what libnats said, and
/// what a caller should make of it (`kind`), so gauged can map it to a status
/// without reading text.
public struct NATSError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What the caller can do about it.
  public enum Kind: Sendable, Equatable {
    /// No server, no quorum, no leader, a timeout, the connection is down:
    /// worth retrying later; nothing is known to have been written.
    case unavailable
    /// JetStream refused for want of memory, storage or a limit.
    case resourceExhausted
    /// The bucket or key does not exist.
    case notFound
    /// Credentials or permissions were refused.
    case notPermitted
    /// The request itself is wrong (a bad key, a bad setting).
    case invalid
    /// Anything else libnats reports.
    case failed
  }

  /// The operation that failed, as the layer's API names it ("connect",
  /// "put", "watch", ...).
  public var operation: String
  public var kind: Kind
  /// libnats's status code (`natsStatus`), 0 when the error is our own.
  public var status: Int32
  /// JetStream's error code (`jsErrCode`), 0 when there was none.
  public var jetStreamCode: Int32
  /// libnats's or JetStream's words for it.
  public var detail: String

  public init(
    operation: String, kind: Kind, status: Int32 = 0, jetStreamCode: Int32 = 0, detail: String
  ) {
    self.operation = operation
    self.kind = kind
    self.status = status
    self.jetStreamCode = jetStreamCode
    self.detail = detail
  }

  public var description: String {
    var text = "NATS \(operation) failed (\(kind)): \(detail)"
    if jetStreamCode != 0 { text += " [JetStream error \(jetStreamCode)]" }
    return text
  }

  /// The error for a libnats call that returned `status`, with the thread's
  /// last error text when libnats left one.
  static func from(
    _ status: natsStatus, jetStreamCode: jsErrCode = jsErrCode(rawValue: 0), operation: String
  ) -> NATSError {
    var lastStatus = NATS_OK
    let lastText = nats_GetLastError(&lastStatus).map { String(cString: $0) } ?? ""
    let statusText = String(cString: natsStatus_GetText(status))
    // The thread's last error may be left from an earlier call that failed
    // differently; it is only this failure's text when the statuses agree.
    let detail = lastStatus == status && !lastText.isEmpty ? lastText : statusText
    return NATSError(
      operation: operation,
      kind: classify(status, jetStreamCode: jetStreamCode),
      status: Int32(status.rawValue),
      jetStreamCode: Int32(jetStreamCode.rawValue),
      detail: detail)
  }

  static func classify(_ status: natsStatus, jetStreamCode: jsErrCode) -> Kind {
    switch jetStreamCode {
    case JSClusterNotAvailErr, JSClusterNotLeaderErr, JSClusterNoPeersErr, JSStreamOfflineErr,
      JSClusterIncompleteErr, JSRaftGeneralErr:
      return .unavailable
    case JSAccountResourcesExceededErr, JSInsufficientResourcesErr, JSMemoryResourcesExceededErr,
      JSStorageResourcesExceededErr, JSStreamLimitsErr, JSStreamMessageExceedsMaximumErr,
      JSMaximumStreamsLimitErr, JSStreamStoreFailedErr:
      return .resourceExhausted
    case JSStreamNotFoundErr, JSNoMessageFoundErr:
      return .notFound
    default:
      break
    }
    switch status {
    case NATS_NO_SERVER, NATS_TIMEOUT, NATS_CONNECTION_CLOSED, NATS_CONNECTION_DISCONNECTED,
      NATS_NO_RESPONDERS, NATS_IO_ERROR, NATS_NOT_YET_CONNECTED, NATS_STALE_CONNECTION,
      NATS_DRAINING,
      // What a write gets while the connection is down: the reconnect
      // buffer is kept too small for any message.
      NATS_INSUFFICIENT_BUFFER:
      return .unavailable
    case NATS_MAX_PAYLOAD, NATS_SLOW_CONSUMER, NATS_NO_MEMORY:
      return .resourceExhausted
    case NATS_NOT_FOUND:
      return .notFound
    case NATS_CONNECTION_AUTH_FAILED, NATS_NOT_PERMITTED, NATS_SECURE_CONNECTION_REQUIRED,
      NATS_SECURE_CONNECTION_WANTED, NATS_SSL_ERROR:
      return .notPermitted
    case NATS_INVALID_ARG, NATS_INVALID_SUBJECT, NATS_ADDRESS_MISSING:
      return .invalid
    default:
      return .failed
    }
  }
}
