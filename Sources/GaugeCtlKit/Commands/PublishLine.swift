import GaugeDomain
import WidgetJSON

/// One line of `gaugectl publish` input: `ID VALUE`, or a JSON object
/// `{"id": "cpu", "value": 42}`, read as `POST /values` reads its lines.
/// Blank lines and `#` comments are skipped. Two rules are gaugectl's own,
/// because it sends the values through protobuf-c rather than to the store.
enum PublishLine: Equatable {
  case item(id: String, value: Double)
  case skip
  /// Not a value line; `id` when the line named one.
  case invalid(id: String?, reason: String)
  /// Readable, but no widget can have this id: longer than any id, it is
  /// rejected here, with the server's rule. Sent, a long enough one would
  /// pass the server's message limit and end the whole stream.
  case refused(id: String, reason: String)

  static func parse(_ line: String) -> PublishLine {
    switch RESTValueLines.read(line[...], format: .eitherPerLine) {
    case .skipped: return .skip
    case .unreadable(let id, let detail): return .invalid(id: id, reason: detail)
    case .value(let update): return checked(id: update.id, value: update.value)
    }
  }

  private static func checked(id: String, value: Double) -> PublishLine {
    // protobuf-c sends the id as a C string: the rest would be cut off and
    // another widget written. (A JSON line cannot carry one: its reader
    // refuses \u0000.)
    if id.utf8.contains(0) { return .invalid(id: nil, reason: "contains a NUL character") }
    guard id.utf8.count > WidgetID.maxLength, let violation = WidgetID.violation(of: id) else {
      return .item(id: id, value: value)
    }
    return .refused(id: id, reason: WidgetError.invalid([violation]).message)
  }
}
