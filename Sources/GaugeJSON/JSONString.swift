/// A string as `JSONReader` found it: the bytes between the quotes, in
/// the reader's input, checked but with escapes as written. Most strings
/// have none, and are used as they are.
public struct JSONString {
  /// Between the quotes, escapes as written.
  public let raw: UnsafeRawBufferPointer
  public let hasEscapes: Bool
  /// Where the opening quote is in the input.
  public let offset: Int

  /// The string's text, escapes decoded.
  public var value: String {
    guard hasEscapes else { return String(decoding: raw, as: UTF8.self) }
    var bytes: [UInt8] = []
    append(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The string's UTF-8, escapes decoded, appended to `bytes`.
  public func append(to bytes: inout [UInt8]) {
    guard hasEscapes else { return bytes.append(contentsOf: raw) }
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      index += 1
      guard byte == UInt8(ascii: "\\") else {
        bytes.append(byte)
        continue
      }
      let escaped = raw[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "b"): bytes.append(0x08)
      case UInt8(ascii: "f"): bytes.append(0x0C)
      case UInt8(ascii: "n"): bytes.append(0x0A)
      case UInt8(ascii: "r"): bytes.append(0x0D)
      case UInt8(ascii: "t"): bytes.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hexQuad(at: index)
        index += 4
        if (0xD800..<0xDC00).contains(scalar) {
          // The reader checked that a low surrogate follows.
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hexQuad(at: index + 2) - 0xDC00)
          index += 6
        }
        bytes.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
      default: bytes.append(escaped)  // " \ /
      }
    }
  }

  /// True when the string is exactly `bytes` (decoded, if it has escapes).
  public func equals(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard hasEscapes else {
      return raw.count == bytes.count && raw.elementsEqual(bytes)
    }
    var decoded: [UInt8] = []
    append(to: &decoded)
    return decoded.withUnsafeBytes { $0.elementsEqual(bytes) }
  }

  private func hexQuad(at index: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 << 4 | UInt32(Self.hexDigit(raw[index + $1])!) }
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
