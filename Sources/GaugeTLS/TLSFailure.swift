import COpenSSL

/// Why OpenSSL refused: a configuration file it could not use, or a
/// handshake or record it would not accept. The text is OpenSSL's own
/// reasons, drained from the thread's error queue.
public struct TLSFailure: Error, CustomStringConvertible, Sendable {
  public let description: String

  init(_ context: String) {
    let reasons = Self.drainErrorQueue()
    description = reasons.isEmpty ? context : "\(context): \(reasons.joined(separator: "; "))"
  }

  init(description: String) {
    self.description = description
  }

  /// OpenSSL's queued errors, oldest first; the queue is empty afterwards,
  /// so a later call on this thread does not see them.
  static func drainErrorQueue() -> [String] {
    var reasons: [String] = []
    while case let code = ERR_get_error(), code != 0 {
      if let reason = ERR_reason_error_string(code) {
        reasons.append(String(cString: reason))
      } else {
        reasons.append("error \(code)")
      }
    }
    return reasons
  }
}
