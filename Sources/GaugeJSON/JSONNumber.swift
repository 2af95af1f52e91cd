/// A number as `JSONReader` found it: its text, for readers that need more
/// than a double holds (64-bit integers), and its value as a double.
public struct JSONNumber {
  /// As written: `-12`, `1.5e3`.
  public let text: UnsafeRawBufferPointer
  /// Written without a fraction or an exponent.
  public let isInteger: Bool
  /// Correctly rounded; infinite when out of a double's range.
  public let value: Double

  init(text: UnsafeRawBufferPointer, isInteger: Bool) {
    self.text = text
    self.isInteger = isInteger
    value = Self.double(text, isInteger: isInteger)
  }

  private static func double(_ text: UnsafeRawBufferPointer, isInteger: Bool) -> Double {
    // Up to 15 digits, an integer is exact in a double: no strtod.
    guard isInteger, text.count <= 15 else {
      return Double(String(decoding: text, as: UTF8.self)) ?? .infinity
    }
    let negative = text[0] == UInt8(ascii: "-")
    var magnitude: Int64 = 0
    for byte in text.dropFirst(negative ? 1 : 0) {
      magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    return negative ? -Double(magnitude) : Double(magnitude)
  }
}
