/// Reads the body producers send most, `{"content":{"value":N}}` (blanks
/// allowed between tokens), straight from its bytes: parsing it into a
/// `JSONValue` cost more than applying it. Anything else, or a number that
/// JSON's grammar refuses, is nil and goes through the JSON reader.
package enum ValueOnlyPatch {
  package static func value(in body: [UInt8]) -> Double? {
    var reader = Reader(bytes: body)
    guard reader.literal("{"), reader.literal("\"content\""), reader.literal(":"),
      reader.literal("{"), reader.literal("\"value\""), reader.literal(":"),
      let number = reader.number(), reader.literal("}"), reader.literal("}"), reader.atEnd
    else { return nil }
    return number
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    private mutating func skipBlanks() {
      while offset < bytes.count,
        bytes[offset] == 0x20 || bytes[offset] == 0x09 || bytes[offset] == 0x0A
          || bytes[offset] == 0x0D
      {
        offset += 1
      }
    }

    var atEnd: Bool {
      mutating get {
        skipBlanks()
        return offset == bytes.count
      }
    }

    mutating func literal(_ text: StaticString) -> Bool {
      skipBlanks()
      return text.withUTF8Buffer { expected in
        guard offset + expected.count <= bytes.count,
          bytes[offset..<offset + expected.count].elementsEqual(expected)
        else { return false }
        offset += expected.count
        return true
      }
    }

    /// A number as JSON writes it: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func number() -> Double? {
      skipBlanks()
      let start = offset
      if peek == UInt8(ascii: "-") { offset += 1 }
      if peek == UInt8(ascii: "0") {
        offset += 1
      } else {
        guard digits() > 0 else { return nil }
      }
      if peek == UInt8(ascii: ".") {
        offset += 1
        guard digits() > 0 else { return nil }
      }
      if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
        offset += 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
        guard digits() > 0 else { return nil }
      }
      let text = String(decoding: bytes[start..<offset], as: UTF8.self)
      guard let value = Double(text), value.isFinite else { return nil }
      return value
    }

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func digits() -> Int {
      let start = offset
      while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
      return offset - start
    }
  }
}
