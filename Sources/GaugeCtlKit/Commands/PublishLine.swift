import GaugeDomain
import GaugeJSON

/// One line of `gaugectl publish` input: `ID VALUE`, or a JSON object
/// `{"id": "cpu", "value": 42}`. Blank lines and `#` comments are skipped.
enum PublishLine: Equatable {
  case item(id: String, value: Double)
  case skip
  case invalid(String)
  /// Readable, but no widget can have this id: longer than any id, it is
  /// rejected here, with the server's rule. Sent, a long enough one would
  /// pass the server's message limit and end the whole stream.
  case refused(id: String, reason: String)

  static func parse(_ line: String) -> PublishLine {
    let text = line.trimmingASCII(where: isBlank)
    if text.isEmpty || text.hasPrefix("#") { return .skip }
    // protobuf-c sends the id as a C string: the rest would be cut off.
    if text.utf8.contains(0) { return .invalid("contains a NUL character") }
    if text.hasPrefix("{") { return json(String(text)) }
    let fields = text.splitASCII(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
    guard fields.count == 2 else {
      let count = fields.count == 1 ? "1 field" : "\(fields.count) fields"
      return .invalid("expected \"ID VALUE\" or a JSON object, got \(count)")
    }
    guard let value = Double(fields[1]) else {
      return .invalid("\"\(fields[1])\" is not a number")
    }
    return checked(id: String(fields[0]), value: value)
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  private static func checked(id: String, value: Double) -> PublishLine {
    guard id.utf8.count > WidgetID.maxLength, let violation = WidgetID.violation(of: id) else {
      return .item(id: id, value: value)
    }
    return .refused(id: id, reason: WidgetError.invalid([violation]).message)
  }

  private static func json(_ text: String) -> PublishLine {
    let object: JSONValue
    do {
      object = try JSONParser.parse(text)
    } catch {
      return .invalid("not JSON: \(error.reason) at column \(error.column)")
    }
    guard case .object(let members) = object else { return .invalid("expected a JSON object") }
    if let unknown = members.first(where: { $0.key != "id" && $0.key != "value" }) {
      return .invalid("unknown field \"\(unknown.key)\" (expected id and value)")
    }
    guard case .string(let id)? = object["id"] else {
      return .invalid("id: expected a string")
    }
    guard case .number(let value)? = object["value"] else {
      return .invalid("value: expected a number")
    }
    return checked(id: id, value: value)
  }
}
