/// One broken rule: the field path (`content.gauge.value`) and the rule in
/// words (`7 is outside [0, 5]`).
public struct FieldViolation: Sendable, Equatable, CustomStringConvertible {
  public var field: String
  public var description: String

  public init(field: String, description: String) {
    self.field = field
    self.description = description
  }
}

public enum WidgetError: Error, Sendable, Equatable {
  /// Every violation found, in field order; never empty.
  case invalid([FieldViolation])
  case notFound(id: String)
  /// The store could not make the change durable; nothing was applied.
  case unavailable(String)

  /// One line for `grpc-message`: `field: rule; field: rule`.
  public var message: String {
    switch self {
    case .invalid(let violations):
      violations.map { "\($0.field): \($0.description)" }.joined(separator: "; ")
    case .notFound(let id):
      "widget \"\(id)\" not found"
    case .unavailable(let reason):
      reason
    }
  }
}
