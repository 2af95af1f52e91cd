/// Why a message could not be transcoded, and where: `field` is the JSON
/// path of the offending field as the client wrote it
/// (`widget.content.gauge.minValue`, `ids[2]`), empty for the whole body.
public struct ProtoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  public var field: String
  public var rule: String

  public init(field: String, rule: String) {
    self.field = field
    self.rule = rule
  }

  public var description: String {
    field.isEmpty ? "the message \(rule)" : "\(field) \(rule)"
  }

  static func body(_ rule: String) -> ProtoJSONError {
    ProtoJSONError(field: "", rule: rule)
  }

  // Paths are built as an error travels out of the recursion, one
  // component per level, so the successful path carries no path at all.

  /// The error as seen from the message that holds the field `name`.
  func inField(_ name: String) -> ProtoJSONError {
    var outer = self
    if field.isEmpty {
      outer.field = name
    } else if field.utf8.first == UInt8(ascii: "[") {
      outer.field = name + field
    } else {
      outer.field = name + "." + field
    }
    return outer
  }

  /// The error as seen from the array that holds element `index`.
  func atIndex(_ index: Int) -> ProtoJSONError {
    var outer = self
    if field.isEmpty || field.utf8.first == UInt8(ascii: "[") {
      outer.field = "[\(index)]" + field
    } else {
      outer.field = "[\(index)]." + field
    }
    return outer
  }
}
