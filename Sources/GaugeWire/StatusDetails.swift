import GaugeDomain

/// A decoded google.rpc.Status from `grpc-status-details-bin`: the code,
/// the message, and the field violations of any google.rpc.BadRequest in
/// its details (other detail types are skipped).
public struct StatusDetails: Sendable, Equatable {
  public var code: Int32
  public var message: String
  public var violations: [FieldViolation]

  public init(code: Int32, message: String, violations: [FieldViolation]) {
    self.code = code
    self.message = message
    self.violations = violations
  }
}
