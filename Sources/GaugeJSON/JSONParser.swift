/// A strict RFC 8259 reader: one value, optionally surrounded by
/// whitespace. Errors name the line and column.
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

  private let bytes: [UInt8]
  private var offset = 0
  private var depth = 0

  private init(_ text: String) {
    bytes = Array(text.utf8)
  }

  public static func parse(_ text: String) throws(Error) -> JSONValue {
    var parser = JSONParser(text)
    parser.skipWhitespace()
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.offset == parser.bytes.count else {
      throw parser.error("unexpected \(parser.describeNext()) after the value")
    }
    return value
  }

  private mutating func value() throws(Error) -> JSONValue {
    guard let byte = peek() else { throw error("expected a value, found the end of the input") }
    switch byte {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("expected a value, found \(describeNext())")
    }
  }

  private mutating func object() throws(Error) -> JSONValue {
    try enter()
    offset += 1
    var members: [(key: String, value: JSONValue)] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      offset += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        throw error("expected a member name in quotes, found \(describeNext())")
      }
      let keyStart = position
      let key = try string()
      if members.contains(where: { $0.key == key }) {
        throw Error(
          line: keyStart.line, column: keyStart.column, reason: "duplicate key \"\(key)\"")
      }
      skipWhitespace()
      try expect(UInt8(ascii: ":"), "\":\" after the member name")
      skipWhitespace()
      members.append((key, try value()))
      skipWhitespace()
      if peek() == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      try expect(UInt8(ascii: "}"), "\",\" or \"}\" in the object")
      depth -= 1
      return .object(members)
    }
  }

  private mutating func array() throws(Error) -> JSONValue {
    try enter()
    offset += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      offset += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value())
      skipWhitespace()
      if peek() == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      try expect(UInt8(ascii: "]"), "\",\" or \"]\" in the array")
      depth -= 1
      return .array(elements)
    }
  }

  private mutating func string() throws(Error) -> String {
    offset += 1
    var out: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error("unterminated string") }
      offset += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try escape(into: &out)
      case 0..<0x20:
        offset -= 1
        throw error("control character U+00\(hex2(byte)) must be escaped in a string")
      default:
        out.append(byte)
      }
    }
  }

  private mutating func escape(into out: inout [UInt8]) throws(Error) {
    guard let byte = peek() else { throw error("unterminated string") }
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hexQuad()
      if (0xD800..<0xDC00).contains(scalar) {
        // A high surrogate must pair with a low one.
        guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
          throw error("unpaired surrogate \\u\(String(scalar, radix: 16))")
        }
        offset += 2
        let low = try hexQuad()
        guard (0xDC00..<0xE000).contains(low) else {
          throw error("unpaired surrogate \\u\(String(scalar, radix: 16))")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw error("unpaired surrogate \\u\(String(scalar, radix: 16))")
      } else if scalar == 0 {
        // protobuf-c sends strings as C strings: the rest would be cut off.
        offset -= 6
        throw error("\\u0000: a string cannot hold NUL")
      }
      out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    default:
      offset -= 1
      throw error("invalid escape \\\(describe(byte))")
    }
  }

  private mutating func hexQuad() throws(Error) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek(), let digit = hexDigit(byte) else {
        throw error("\\u needs four hex digits")
      }
      value = value << 4 | UInt32(digit)
      offset += 1
    }
    return value
  }

  private mutating func number() throws(Error) -> JSONValue {
    let start = offset
    if peek() == UInt8(ascii: "-") { offset += 1 }
    guard let first = peek(), isDigit(first) else { throw error("expected a digit after \"-\"") }
    if first == UInt8(ascii: "0") {
      offset += 1
      if let next = peek(), isDigit(next) { throw error("leading zeros are not allowed") }
    } else {
      skipDigits()
    }
    if peek() == UInt8(ascii: ".") {
      offset += 1
      guard let next = peek(), isDigit(next) else { throw error("expected a digit after \".\"") }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      offset += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
      guard let next = peek(), isDigit(next) else {
        throw error("expected a digit in the exponent")
      }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    guard let number = Double(text), number.isFinite else {
      offset = start
      throw error("number \(text) is out of range")
    }
    return .number(number)
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(Error) -> JSONValue {
    let expected = Array(word.utf8)
    guard bytes.count - offset >= expected.count,
      Array(bytes[offset..<offset + expected.count]) == expected
    else { throw error("expected a value, found \(describeNext())") }
    offset += expected.count
    return value
  }

  private mutating func enter() throws(Error) {
    depth += 1
    if depth > Self.maxDepth { throw error("nested deeper than \(Self.maxDepth) levels") }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(Error) {
    guard peek() == byte else { throw error("expected \(what), found \(describeNext())") }
    offset += 1
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    {
      offset += 1
    }
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { offset += 1 }
  }

  private func peek(_ ahead: Int = 0) -> UInt8? {
    offset + ahead < bytes.count ? bytes[offset + ahead] : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private func hex2(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }

  private func describeNext() -> String {
    guard let byte = peek() else { return "the end of the input" }
    return describe(byte)
  }

  private func describe(_ byte: UInt8) -> String {
    if byte >= 0x21, byte <= 0x7E { return "\"\(Character(Unicode.Scalar(byte)))\"" }
    return "byte 0x\(hex2(byte))"
  }

  /// 1-based line and column (in characters) of the current offset.
  private var position: (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count
    return (line, column + 1)
  }

  private func error(_ reason: String) -> Error {
    let (line, column) = position
    return Error(line: line, column: column, reason: reason)
  }
}
