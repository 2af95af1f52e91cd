import Glibc

/// The number a `value` widget's JSON carries, as the REST face and the
/// event stream write it: `"content":{"template":"value","value":57}`.
enum WidgetJSONValue {
  private static let key: StaticString = "\"value\":"

  /// The number after the first `"value":` key. In a `value` widget that is
  /// the content's: a string cannot hide the key, since its quotes would
  /// be escaped, and `"template":"value"` is followed by a comma. Nil when
  /// there is no such key or no number after it.
  static func value(in json: UnsafeRawBufferPointer) -> Double? {
    guard let keyEnd = end(ofFirst: key, in: json) else { return nil }
    var index = keyEnd
    while index < json.count, json[index] == UInt8(ascii: " ") { index += 1 }
    let start = index
    var digitsOnly = true
    scanning: while index < json.count {
      switch json[index] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): break
      case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
        UInt8(ascii: "E"):
        digitsOnly = false
      default: break scanning
      }
      index += 1
    }
    guard index > start else { return nil }
    // Whole numbers (a clock reading in nanoseconds) need no String.
    if digitsOnly, index - start <= 18 {
      var whole: UInt64 = 0
      for position in start..<index { whole = whole * 10 + UInt64(json[position] - 48) }
      return Double(whole)
    }
    return Double(String(decoding: json[start..<index], as: UTF8.self))
  }

  /// Just past the first occurrence of `needle`: each quote `memchr` finds
  /// is compared with it.
  private static func end(ofFirst needle: StaticString, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let wanted = UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
    var from = 0
    while from + wanted.count <= bytes.count,
      let found = memchr(base + from, Int32(wanted[0]), bytes.count - from)
    {
      let at = base.distance(to: UnsafeRawPointer(found))
      guard at + wanted.count <= bytes.count else { return nil }
      if memcmp(base + at, wanted.baseAddress!, wanted.count) == 0 { return at + wanted.count }
      from = at + 1
    }
    return nil
  }
}
