/// What must hold of a widget before a write may touch it (HTTP's
/// `If-Match`, a create that must not replace). Checked inside the store's
/// critical section together with the write, so no other writer can slip
/// in between the check and the change.
public enum WritePrecondition: Sendable, Equatable {
  /// Unconditional.
  case none
  /// The widget exists and its revision is this one.
  case revision(UInt64)
  /// The widget exists, whatever its revision.
  case exists
  /// No widget has this id (a create that must not replace).
  case absent
}

extension WidgetTable {
  /// Throws `.preconditionFailed` or `.alreadyExists` when `precondition`
  /// does not hold for `id`. An id that is missing or invalid passes, so
  /// the write reports it with every other violation.
  public func check(_ precondition: WritePrecondition, id: String?) throws(WidgetError) {
    guard precondition != .none, let id, WidgetID.isValid(id) else { return }
    let stored: Widget?
    do throws(WidgetError) {
      stored = try get(id: id)
    } catch {
      stored = nil
    }
    switch precondition {
    case .none:
      return
    case .revision(let expected):
      if stored?.revision != expected {
        throw .preconditionFailed(id: id, currentRevision: stored?.revision)
      }
    case .exists:
      if stored == nil { throw .preconditionFailed(id: id, currentRevision: nil) }
    case .absent:
      if stored != nil { throw .alreadyExists(id: id) }
    }
  }
}
