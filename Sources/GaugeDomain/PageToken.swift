/// ListWidgets' page token: the last id of the previous page, hex-encoded so
/// clients treat it as opaque rather than as an id. Resuming after an id
/// (not at an offset) keeps paging stable while widgets come and go.
enum PageToken {
  static func encode(lastID: String) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(lastID.utf8.count * 2)
    for byte in lastID.utf8 {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The id the token resumes after; nil when the token was not made by
  /// `encode` (every id it encodes is a valid widget id).
  static func decode(_ token: String) -> String? {
    let text = Array(token.utf8)
    guard !text.isEmpty, text.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 2)
    var index = 0
    while index < text.count {
      guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    let id = String(decoding: bytes, as: UTF8.self)
    return WidgetID.isValid(id) ? id : nil
  }

  /// Lowercase only, so each id has exactly one token.
  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
