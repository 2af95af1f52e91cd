/// A strict RFC 8259 reader: one value, optionally surrounded by
/// whitespace, as a `JSONValue`. Errors name the line and column.
public struct JSONParser {
  public struct Error: Swift.Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
  }

  /// Arrays and objects nested deeper than this are refused rather than
  /// risking the stack.
  public static let maxDepth = 64

  public static func parse(_ text: String) throws(Error) -> JSONValue {
    var text = text
    // withUTF8 rethrows untyped errors: the error comes out as a Result.
    return try text.withUTF8 { utf8 in
      Result { () throws(Error) in
        var reader = JSONReader(UnsafeRawBufferPointer(utf8))
        let value = try value(&reader)
        try reader.finish()
        return value
      }
    }.get()
  }

  private static func value(_ reader: inout JSONReader) throws(Error) -> JSONValue {
    switch try reader.nextKind() {
    case .object:
      try reader.beginObject()
      var members: [(key: String, value: JSONValue)] = []
      while let key = try reader.nextMember() {
        let name = key.value
        if members.contains(where: { $0.key == name }) {
          throw reader.error("duplicate key \"\(name)\"", at: key.offset)
        }
        members.append((name, try value(&reader)))
      }
      return .object(members)
    case .array:
      try reader.beginArray()
      var elements: [JSONValue] = []
      while try reader.nextElement() {
        elements.append(try value(&reader))
      }
      return .array(elements)
    case .string: return .string(try reader.string().value)
    case .number: return .number(try reader.number().value)
    case .bool: return .bool(try reader.bool())
    case .null:
      try reader.null()
      return .null
    }
  }
}
