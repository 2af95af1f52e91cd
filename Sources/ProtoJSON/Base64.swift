/// Base64 as the JSON mapping carries bytes fields: written in the standard
/// alphabet with padding, read in the standard or the URL-safe alphabet,
/// with or without padding.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func append(_ data: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    var index = 0
    while index + 3 <= data.count {
      let group = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
      out.append(alphabet[Int(group >> 18)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(alphabet[Int(group >> 6 & 63)])
      out.append(alphabet[Int(group & 63)])
      index += 3
    }
    switch data.count - index {
    case 1:
      let group = UInt32(data[index]) << 16
      out.append(alphabet[Int(group >> 18)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")])
    case 2:
      let group = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8
      out.append(alphabet[Int(group >> 18)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(alphabet[Int(group >> 6 & 63)])
      out.append(UInt8(ascii: "="))
    default:
      break
    }
  }

  /// Appends the bytes `text` encodes to `out`; false when it is not
  /// base64 (`out` then holds part of it).
  static func decode(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
    var count = text.count
    // Padding is optional, but where present it must complete the last group.
    if count > 0, text[count - 1] == UInt8(ascii: "=") {
      guard count % 4 == 0 else { return false }
      count -= text[count - 2] == UInt8(ascii: "=") ? 2 : 1
    }
    guard count % 4 != 1 else { return false }
    out.reserveCapacity(out.count + count * 3 / 4)
    var group: UInt32 = 0
    for index in 0..<count {
      guard let value = value(of: text[index]) else { return false }
      group = group << 6 | UInt32(value)
      if index % 4 == 3 {
        out.append(UInt8(truncatingIfNeeded: group >> 16))
        out.append(UInt8(truncatingIfNeeded: group >> 8))
        out.append(UInt8(truncatingIfNeeded: group))
        group = 0
      }
    }
    switch count % 4 {
    case 2:
      out.append(UInt8(truncatingIfNeeded: group >> 4))
    case 3:
      out.append(UInt8(truncatingIfNeeded: group >> 10))
      out.append(UInt8(truncatingIfNeeded: group >> 2))
    default:
      break
    }
    return true
  }

  private static func value(of symbol: UInt8) -> UInt8? {
    switch symbol {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
    case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
