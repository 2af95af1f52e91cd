import GaugeJSON

/// Numeric fields read from JSON: a number, or the same in quotes, as the
/// JSON mapping allows. Integers are read from their digits, so 64-bit
/// values are exact whether quoted or not.
enum NumberInput {
  /// An integer with its sign apart, so every 64-bit value of either
  /// signedness fits.
  struct Whole {
    var negative: Bool
    var magnitude: UInt64

    /// The two's complement bits, for signed kinds.
    var bits: UInt64 { negative ? 0 &- magnitude : magnitude }
  }

  /// Doubles hold every integer below this exactly.
  private static let exactLimit: Double = 9_007_199_254_740_992

  /// An integer field's value from a JSON number, within `kind`'s range.
  static func whole(_ number: JSONNumber, as kind: FieldKind) throws(ProtoJSONError) -> Whole {
    if number.isInteger { return try decimal(number.text, as: kind) }
    // 1e3 or 5.0: whole, but read as a double, which is exact only so far.
    let value = number.value
    guard value == value.rounded(.towardZero) else { throw .body("must be an integer") }
    guard value.magnitude < 18_446_744_073_709_551_616 else { throw outOfRange(kind) }
    let whole = Whole(negative: value < 0, magnitude: UInt64(value.magnitude))
    guard fits(whole, kind) else { throw outOfRange(kind) }
    guard value.magnitude < exactLimit else {
      throw .body("must be written in digits alone from 2^53 on")
    }
    return whole
  }

  /// An integer field's value from a JSON string: `-`? digits.
  static func whole(_ text: JSONString, as kind: FieldKind) throws(ProtoJSONError) -> Whole {
    try withDecoded(text) { (bytes) throws(ProtoJSONError) in try decimal(bytes, as: kind) }
  }

  /// A double or float field's value from a JSON number.
  static func floating(_ number: JSONNumber, as kind: FieldKind) throws(ProtoJSONError) -> Double {
    try inRange(number.value, kind)
  }

  /// A double or float field's value from a JSON string: a number in
  /// quotes, or "NaN", "Infinity", "-Infinity".
  static func floating(_ text: JSONString, as kind: FieldKind) throws(ProtoJSONError) -> Double {
    let value = try withDecoded(text) { (bytes) throws(ProtoJSONError) -> Double in
      if equal(bytes, "NaN") { return .nan }
      if equal(bytes, "Infinity") { return .infinity }
      if equal(bytes, "-Infinity") { return -.infinity }
      // Double(String) would also take "inf", "0x1p3" and the like.
      guard isJSONNumber(bytes), let value = Double(String(decoding: bytes, as: UTF8.self)),
        value.isFinite
      else { throw .body("must be a number") }
      return value
    }
    return value.isFinite ? try inRange(value, kind) : value
  }

  private static func inRange(_ value: Double, _ kind: FieldKind) throws(ProtoJSONError) -> Double {
    // Beyond the largest float, but rounding to it, is still in range.
    if kind == .float, Float(value).isInfinite { throw outOfRange(kind) }
    return value
  }

  private static func fits(_ whole: Whole, _ kind: FieldKind) -> Bool {
    let limit: (negative: UInt64, positive: UInt64) =
      switch kind {
      case .int32, .sint32, .sfixed32, .enumeration: (1 << 31, (1 << 31) - 1)
      case .uint32, .fixed32: (0, UInt64(UInt32.max))
      case .int64, .sint64, .sfixed64: (1 << 63, (1 << 63) - 1)
      default: (0, UInt64.max)
      }
    return whole.magnitude <= (whole.negative ? limit.negative : limit.positive)
  }

  private static func outOfRange(_ kind: FieldKind) -> ProtoJSONError {
    .body("is out of range for \(kind.protoName)")
  }

  /// `-`? digits, nothing else, within `kind`'s range.
  private static func decimal(
    _ text: UnsafeRawBufferPointer, as kind: FieldKind
  ) throws(ProtoJSONError) -> Whole {
    let negative = text.first == UInt8(ascii: "-")
    let digits = negative ? UnsafeRawBufferPointer(rebasing: text.dropFirst()) : text
    guard !digits.isEmpty else { throw .body("must be an integer") }
    var magnitude: UInt64 = 0
    var overflow = false
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
        throw .body("must be an integer")
      }
      let (times10, over) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      overflow = overflow || over || carry
      magnitude = sum
    }
    let whole = Whole(negative: negative, magnitude: magnitude)
    guard !overflow, fits(whole, kind) else { throw outOfRange(kind) }
    return whole
  }

  /// `body` on the string's bytes, escapes decoded (numbers in quotes
  /// rarely have any).
  private static func withDecoded<Result>(
    _ text: JSONString, _ body: (UnsafeRawBufferPointer) throws(ProtoJSONError) -> Result
  ) throws(ProtoJSONError) -> Result {
    guard text.hasEscapes else { return try body(text.raw) }
    var bytes: [UInt8] = []
    text.append(to: &bytes)
    return try bytes.withUnsafeBytes { bytes in
      Swift.Result { () throws(ProtoJSONError) in try body(bytes) }
    }.get()
  }

  private static func equal(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
    bytes.count == word.utf8CodeUnitCount
      && bytes.indices.allSatisfy { bytes[$0] == word.utf8Start[$0] }
  }

  /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  static func isJSONNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
        bytes[index] <= UInt8(ascii: "9")
      {
        index += 1
      }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let whole = digits()
    guard whole > 0, !(leadingZero && whole > 1) else { return false }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return false }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
