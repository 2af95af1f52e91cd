/// Writes compact JSON straight into bytes, for answers written on every
/// request: no `JSONValue` tree and no String in between. What it writes is
/// byte for byte what `JSONWriter.compact` writes for the same document.
public struct JSONByteWriter {
  public private(set) var bytes: [UInt8]
  /// One bit per open container: set once it holds an element, so the next
  /// one is preceded by a comma.
  private var hasElements: UInt64 = 0
  private var depth = 0
  /// A key was written: its value takes no comma.
  private var valueFollowsKey = false

  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  public mutating func beginObject() { open(UInt8(ascii: "{")) }
  public mutating func endObject() { close(UInt8(ascii: "}")) }
  public mutating func beginArray() { open(UInt8(ascii: "[")) }
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// A member's key; its value follows.
  public mutating func key(_ name: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    // Two appends: an array literal here would be allocated per key.
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    valueFollowsKey = true
  }

  /// A member's key laid out once, quoted and escaped, with its colon, for
  /// keys written over and over (a schema's field names): one append.
  public struct Key: Sendable {
    let bytes: [UInt8]

    public init(_ name: String) {
      bytes = Array(JSONWriter.quoted(name).utf8) + [UInt8(ascii: ":")]
    }
  }

  public mutating func key(_ key: Key) {
    separate()
    bytes.append(contentsOf: key.bytes)
    valueFollowsKey = true
  }

  /// A string given as valid UTF-8 (a protobuf string read off the wire),
  /// escaped as `string(_:)` escapes it; no String is made unless something
  /// needs escaping.
  public mutating func string(utf8 text: UnsafeRawBufferPointer) {
    separate()
    let text = UnsafeBufferPointer(
      start: text.baseAddress?.assumingMemoryBound(to: UInt8.self), count: text.count)
    for byte in text where JSONWriter.needsEscape(byte) {
      bytes.append(contentsOf: JSONWriter.quoted(String(decoding: text, as: UTF8.self)).utf8)
      return
    }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(contentsOf: text)
    bytes.append(UInt8(ascii: "\""))
  }

  public mutating func string(_ text: String) {
    separate()
    if JSONWriter.needsNoEscape(text) {
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: "\""))
    } else {
      bytes.append(contentsOf: JSONWriter.quoted(text).utf8)
    }
  }

  public mutating func number(_ value: Double) {
    // Whole numbers (most gauges' values and bounds) as digits, which is
    // what JSONWriter.format writes for them, without a String.
    if value == value.rounded(), value.magnitude <= 9_007_199_254_740_992,
      !(value == 0 && value.sign == .minus)
    {
      if value < 0 {
        separate()
        bytes.append(UInt8(ascii: "-"))
        valueFollowsKey = true
      }
      return integer(UInt64(value.magnitude))
    }
    separate()
    bytes.append(contentsOf: JSONWriter.format(value).utf8)
  }

  /// A whole number.
  public mutating func integer(_ value: UInt64) {
    separate()
    Self.appendDecimal(value, to: &bytes)
  }

  /// The decimal digits of `value`, for numbers laid out inside `raw` (a
  /// protobuf 64-bit integer, which JSON carries in quotes).
  public static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    // Laid out from the last digit in a stack buffer, appended once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var rest = value
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      } while rest > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// A value written by `body` straight into the output (a time string
  /// laid out elsewhere); it must be one whole JSON value.
  public mutating func raw(_ body: (inout [UInt8]) -> Void) {
    separate()
    body(&bytes)
  }

  public mutating func member(_ name: StaticString, _ text: String) {
    key(name)
    string(text)
  }

  public mutating func member(_ name: StaticString, _ text: String?) {
    guard let text else { return }
    member(name, text)
  }

  public mutating func member(_ name: StaticString, number value: Double) {
    key(name)
    number(value)
  }

  public mutating func member(_ name: StaticString, integer value: UInt64) {
    key(name)
    integer(value)
  }

  private mutating func open(_ bracket: UInt8) {
    separate()
    bytes.append(bracket)
    depth += 1
    precondition(depth < 64, "JSONByteWriter nests at most 63 containers")
    hasElements &= ~(1 << UInt64(depth))
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    bytes.append(bracket)
  }

  private mutating func separate() {
    if valueFollowsKey {
      valueFollowsKey = false
      return
    }
    guard depth > 0 else { return }
    let bit: UInt64 = 1 << UInt64(depth)
    if hasElements & bit != 0 { bytes.append(UInt8(ascii: ",")) }
    hasElements |= bit
  }
}
