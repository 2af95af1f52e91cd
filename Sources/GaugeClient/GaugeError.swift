import GRPCCore
import GaugeWire

/// Why a call failed: the gRPC status code, its message, the field
/// violations of a rejected request (`content.gauge.value: 9 is outside
/// [0, 5]`), and whether trying again may help.
public struct GaugeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The gRPC status code.
  public var code: Code
  /// The server's (or the client's) explanation.
  public var message: String
  /// The fields a rejected request got wrong, from the status's
  /// `google.rpc.BadRequest` details; empty for other failures.
  public var violations: [FieldViolation]

  /// Makes an error; the library makes them, tests and callers may too.
  public init(code: Code, message: String, violations: [FieldViolation] = []) {
    self.code = code
    self.message = message
    self.violations = violations
  }

  /// From a call's status, reading any field violations in its details.
  init(status: GRPCStatus) {
    self.code = Code(rawValue: status.code.rawValue) ?? .unknown
    self.message = status.message
    if let details = status.details,
      let decoded = try? details.withUnsafeBytes({ raw throws(WireError) in
        try StatusDetailsWire.decode(raw)
      })
    {
      self.violations = decoded.violations
    } else {
      self.violations = []
    }
  }

  /// Whether the same request may succeed later: the server was
  /// unreachable, overloaded, or ran out of time. Requests the server
  /// judged wrong fail the same way every time.
  public var isRetryable: Bool {
    switch code {
    case .unavailable, .resourceExhausted, .aborted, .deadlineExceeded: true
    default: false
    }
  }

  /// `CODE: message`, then one line per violation.
  public var description: String {
    var text = "\(code): \(message)"
    for violation in violations {
      text += "\n  \(violation.field): \(violation.description)"
    }
    return text
  }

  /// The calling task was cancelled.
  static let cancelled = GaugeError(code: .cancelled, message: "the call was cancelled")
  /// A call on a client that `close()` has shut.
  static let closed = GaugeError(code: .unavailable, message: "the client is closed")

  /// A response the library could not read.
  static func badResponse(_ error: WireError, path: String) -> GaugeError {
    GaugeError(code: .internal, message: "unreadable response from \(path): \(error.message)")
  }
}
