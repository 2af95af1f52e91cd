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
  /// A write's `WritePrecondition` did not hold: the widget is now at
  /// `currentRevision`, or is absent when that is nil. Nothing was applied.
  case preconditionFailed(id: String, currentRevision: UInt64?)
  /// A create that must not replace found the id taken.
  case alreadyExists(id: String)
  /// The id is under a prefix the server keeps for its own widgets, which
  /// clients may read but not write (`ReservedPrefixStore`).
  case readOnly(id: String, prefix: String)
  /// The caller's token is limited to ids starting with `prefix`, and `id`
  /// (or a listing's prefix) lies outside. Nothing was read or applied.
  case outsideReach(id: String, prefix: String)
  /// A write lost to concurrent writers of the same widget too many times
  /// in a row (a shared store's compare-and-set); nothing was applied.
  case aborted(String)
  /// The store refused the write for want of space or a limit of its own
  /// (a shared store's storage); nothing was applied.
  case resourceExhausted(String)

  /// One line for `grpc-message`: `field: rule; field: rule`.
  public var message: String {
    switch self {
    case .invalid(let violations):
      violations.map { "\($0.field): \($0.description)" }.joined(separator: "; ")
    case .notFound(let id):
      "widget \"\(id)\" not found"
    case .unavailable(let reason), .aborted(let reason), .resourceExhausted(let reason):
      reason
    case .preconditionFailed(let id, let revision?):
      "widget \"\(id)\" has changed: its revision is now \(revision)"
    case .preconditionFailed(let id, nil):
      "widget \"\(id)\" does not exist"
    case .alreadyExists(let id):
      "widget \"\(id)\" already exists"
    case .readOnly(let id, let prefix):
      "widget \"\(id)\" is read-only: ids starting with \"\(prefix)\" are the server's own "
        + "gauges"
    case .outsideReach(let id, let prefix):
      "\"\(id)\" is outside this token's prefix \"\(prefix)\""
    }
  }
}
