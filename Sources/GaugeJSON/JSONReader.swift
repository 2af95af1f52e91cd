/// Reads JSON one value at a time, straight from UTF-8 bytes, without
/// building a tree: the caller asks for what it expects next. `JSONParser`
/// builds `JSONValue`s with it; a transcoder can read a document into
/// another format without a String per key or value.
///
/// It reads the caller's bytes in place, so the bytes must outlive the
/// reader and every `JSONString` and `JSONNumber` it returns. They are
/// taken to be UTF-8 (a String's, or checked by the caller). Errors are
/// `JSONParser.Error`s, naming the line and column.
public struct JSONReader {
  public typealias Error = JSONParser.Error

  public enum Kind: Sendable {
    case object, array, string, number, bool, null
  }

  /// Nil only for empty input, where every read stops at `count` first.
  private let base: UnsafePointer<UInt8>?
  private let count: Int
  /// The offset of the next byte to read.
  public private(set) var offset = 0
  private var depth = 0
  /// One bit per open container (bit `depth - 1`): set once it holds an
  /// element, so the next one must follow a comma.
  private var hasElements: UInt64 = 0

  public init(_ bytes: UnsafeRawBufferPointer) {
    base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    count = bytes.count
  }

  /// The kind of the value that starts after any whitespace.
  public mutating func nextKind() throws(Error) -> Kind {
    skipWhitespace()
    guard let byte = peek() else { throw error("expected a value, found the end of the input") }
    switch byte {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: throw error("expected a value, found \(describeNext())")
    }
  }

  /// Enters the object that `nextKind` found; `nextMember` reads it.
  public mutating func beginObject() throws(Error) {
    try enter()
  }

  /// The key of the object's next member, its value next to read; nil once
  /// the object has ended.
  public mutating func nextMember() throws(Error) -> JSONString? {
    skipWhitespace()
    if peek() == UInt8(ascii: "}"), !holdsElements {
      offset += 1
      leave()
      return nil
    }
    if holdsElements {
      if peek() == UInt8(ascii: ",") {
        offset += 1
        skipWhitespace()
      } else {
        try expect(UInt8(ascii: "}"), "\",\" or \"}\" in the object")
        leave()
        return nil
      }
    }
    guard peek() == UInt8(ascii: "\"") else {
      throw error("expected a member name in quotes, found \(describeNext())")
    }
    markElement()
    let key = try string()
    skipWhitespace()
    try expect(UInt8(ascii: ":"), "\":\" after the member name")
    return key
  }

  /// Enters the array that `nextKind` found; `nextElement` reads it.
  public mutating func beginArray() throws(Error) {
    try enter()
  }

  /// True when another element follows, to be read next; false once the
  /// array has ended.
  public mutating func nextElement() throws(Error) -> Bool {
    skipWhitespace()
    if peek() == UInt8(ascii: "]"), !holdsElements {
      offset += 1
      leave()
      return false
    }
    if holdsElements {
      if peek() == UInt8(ascii: ",") {
        offset += 1
      } else {
        try expect(UInt8(ascii: "]"), "\",\" or \"]\" in the array")
        leave()
        return false
      }
    }
    markElement()
    return true
  }

  /// The string that `nextKind` found, checked (escapes, control
  /// characters) but not decoded.
  public mutating func string() throws(Error) -> JSONString {
    let quote = offset
    offset += 1
    var hasEscapes = false
    while true {
      // Most bytes are plain: stepped over in a tight loop.
      var index = offset
      let bytes = base.unsafelyUnwrapped
      while index < count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        index += 1
      }
      offset = index
      guard let byte = peek() else { throw error("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return JSONString(
          raw: UnsafeRawBufferPointer(start: base! + quote + 1, count: offset - quote - 2),
          hasEscapes: hasEscapes, offset: quote)
      case UInt8(ascii: "\\"):
        hasEscapes = true
        offset += 1
        try checkEscape()
      case 0..<0x20:
        throw error("control character U+00\(hex2(byte)) must be escaped in a string")
      default:
        offset += 1
      }
    }
  }

  /// The number that `nextKind` found.
  public mutating func number() throws(Error) -> JSONNumber {
    let start = offset
    if peek() == UInt8(ascii: "-") { offset += 1 }
    guard let first = peek(), isDigit(first) else { throw error("expected a digit after \"-\"") }
    if first == UInt8(ascii: "0") {
      offset += 1
      if let next = peek(), isDigit(next) { throw error("leading zeros are not allowed") }
    } else {
      skipDigits()
    }
    var isInteger = true
    if peek() == UInt8(ascii: ".") {
      isInteger = false
      offset += 1
      guard let next = peek(), isDigit(next) else { throw error("expected a digit after \".\"") }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      isInteger = false
      offset += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
      guard let next = peek(), isDigit(next) else {
        throw error("expected a digit in the exponent")
      }
      skipDigits()
    }
    let number = JSONNumber(
      text: UnsafeRawBufferPointer(start: base! + start, count: offset - start),
      isInteger: isInteger)
    guard number.value.isFinite else {
      offset = start
      throw error("number \(String(decoding: number.text, as: UTF8.self)) is out of range")
    }
    return number
  }

  /// The `true` or `false` that `nextKind` found.
  public mutating func bool() throws(Error) -> Bool {
    if peek() == UInt8(ascii: "t") {
      try literal("true")
      return true
    }
    try literal("false")
    return false
  }

  /// The `null` that `nextKind` found.
  public mutating func null() throws(Error) {
    try literal("null")
  }

  /// Checks that nothing but whitespace follows the value read.
  public mutating func finish() throws(Error) {
    skipWhitespace()
    guard offset == count else { throw error("unexpected \(describeNext()) after the value") }
  }

  /// An error at `offset` (by default where the reader is).
  public func error(_ reason: String, at offset: Int? = nil) -> Error {
    let (line, column) = position(of: min(offset ?? self.offset, count))
    return Error(line: line, column: column, reason: reason)
  }

  private mutating func checkEscape() throws(Error) {
    guard let byte = peek() else { throw error("unterminated string") }
    offset += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return
    case UInt8(ascii: "u"):
      let scalar = try hexQuad()
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
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw error("unpaired surrogate \\u\(String(scalar, radix: 16))")
      } else if scalar == 0 {
        // protobuf-c sends strings as C strings: the rest would be cut off.
        offset -= 6
        throw error("\\u0000: a string cannot hold NUL")
      }
    default:
      offset -= 1
      throw error("invalid escape \\\(describe(byte))")
    }
  }

  private mutating func hexQuad() throws(Error) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek(), let digit = JSONString.hexDigit(byte) else {
        throw error("\\u needs four hex digits")
      }
      value = value << 4 | UInt32(digit)
      offset += 1
    }
    return value
  }

  private mutating func literal(_ word: StaticString) throws(Error) {
    let length = word.utf8CodeUnitCount
    guard count - offset >= length,
      (0..<length).allSatisfy({ base![offset + $0] == word.utf8Start[$0] })
    else { throw error("expected a value, found \(describeNext())") }
    offset += length
  }

  private mutating func enter() throws(Error) {
    depth += 1
    if depth > JSONParser.maxDepth {
      throw error("nested deeper than \(JSONParser.maxDepth) levels")
    }
    offset += 1
    hasElements &= ~(1 << UInt64(depth - 1))
  }

  private mutating func leave() {
    depth -= 1
  }

  private var holdsElements: Bool { hasElements & (1 << UInt64(depth - 1)) != 0 }

  private mutating func markElement() {
    hasElements |= 1 << UInt64(depth - 1)
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

  @inline(__always)
  private func peek(_ ahead: Int = 0) -> UInt8? {
    // `base` is nil only when `count` is 0.
    offset + ahead < count ? base.unsafelyUnwrapped[offset + ahead] : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
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

  /// 1-based line and column (in characters) of `offset`: worked out only
  /// for an error, as it walks the input from the top.
  private func position(of offset: Int) -> (line: Int, column: Int) {
    guard let base else { return (1, 1) }
    var line = 1
    var lineStart = 0
    for index in 0..<offset where base[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    let text = UnsafeBufferPointer(start: base + lineStart, count: offset - lineStart)
    return (line, String(decoding: text, as: UTF8.self).count + 1)
  }
}
