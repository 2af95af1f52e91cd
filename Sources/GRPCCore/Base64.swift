/// Base64 for `-bin` metadata: emitted unpadded (as grpc recommends), accepted
/// padded or not, in the standard or the URL-safe alphabet (Connect's GET
/// sends the latter). gRPC-Web's text bodies are padded per flush.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let reverse: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    table[Int(UInt8(ascii: "-"))] = 62
    table[Int(UInt8(ascii: "_"))] = 63
    return table
  }()

  package static func encode(_ bytes: [UInt8]) -> String {
    String(decoding: encodedBytes(bytes, padded: false), as: UTF8.self)
  }

  package static func encodedBytes(_ bytes: [UInt8], padded: Bool) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let chunk =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      out.append(alphabet[Int(chunk >> 18 & 63)])
      out.append(alphabet[Int(chunk >> 12 & 63)])
      out.append(alphabet[Int(chunk >> 6 & 63)])
      out.append(alphabet[Int(chunk & 63)])
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      var chunk = UInt32(bytes[index]) << 16
      if rest == 2 { chunk |= UInt32(bytes[index + 1]) << 8 }
      out.append(alphabet[Int(chunk >> 18 & 63)])
      out.append(alphabet[Int(chunk >> 12 & 63)])
      if rest == 2 { out.append(alphabet[Int(chunk >> 6 & 63)]) }
      if padded { out.append(contentsOf: rest == 2 ? [61] : [61, 61]) }
    }
    return out
  }

  /// Text made of several padded pieces one after another, as a gRPC-Web
  /// text body is (each flush is encoded on its own); nil when a piece is
  /// not base64.
  package static func decodeConcatenated(_ text: some Collection<UInt8>) -> [UInt8]? {
    var out = [UInt8]()
    var piece = [UInt8]()
    var afterPadding = false
    for symbol in text {
      if symbol == UInt8(ascii: "=") {
        afterPadding = true
        continue
      }
      if afterPadding {
        guard let bytes = decode(piece) else { return nil }
        out += bytes
        piece.removeAll(keepingCapacity: true)
        afterPadding = false
      }
      piece.append(symbol)
    }
    guard let bytes = decode(piece) else { return nil }
    return out + bytes
  }

  /// nil when the text is not base64.
  package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
    var symbols = Array(text)
    while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
    if symbols.count % 4 == 1 { return nil }
    var out = [UInt8]()
    out.reserveCapacity(symbols.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for symbol in symbols {
      let value = reverse[Int(symbol)]
      if value == 0xFF { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    return out
  }
}
