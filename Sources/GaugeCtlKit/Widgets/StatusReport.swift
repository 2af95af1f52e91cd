import GRPCClient
import GRPCCore
import GaugeWire

/// A failed call as gaugectl reports it: the code's name and the server's
/// message, then one line per violated rule from the status details, so
/// errors read like the server's.
enum StatusReport {
  static func error(_ status: GRPCStatus, doing action: String, server: String) -> CLIError {
    let code = exitCode(for: status.code)
    if code == .unreachable {
      let reason = status.message.isEmpty ? status.code.canonicalName : status.message
      return CLIError(
        .unreachable, ["\(action): gauged at \(server) did not answer: \(reason)"])
    }
    let violations =
      status.details.flatMap { details in
        try? details.withUnsafeBytes { bytes throws(WireError) in
          try StatusDetailsWire.decode(bytes)
        }
      }?.violations ?? []
    if violations.isEmpty {
      let message = status.message.isEmpty ? "" : ": " + status.message
      return CLIError(code, ["\(action): \(status.code.canonicalName)\(message)"])
    }
    return CLIError(
      code,
      ["\(action): \(status.code.canonicalName)"]
        + violations.map { "\($0.field): \($0.description)" })
  }

  /// 3 when the server is unreachable or stopped answering in time; 1 for
  /// everything the server refused.
  static func exitCode(for code: GRPCStatus.Code) -> ExitCode {
    switch code {
    case .ok: .ok
    case .unavailable, .deadlineExceeded: .unreachable
    default: .rejected
    }
  }
}
