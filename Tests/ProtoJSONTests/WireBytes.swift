/// Protobuf bytes laid out by hand, field by field, so a test says exactly
/// what is on the wire (order, repeats, packing, unknown fields).
struct WireBytes {
  var bytes: [UInt8] = []

  func key(_ number: UInt64, _ wireType: UInt64) -> WireBytes {
    raw(Self.varint(number << 3 | wireType))
  }

  func varint(_ number: UInt64, _ value: UInt64) -> WireBytes {
    key(number, 0).raw(Self.varint(value))
  }

  /// An int32 or enum: negative values sign-extended to ten bytes.
  func int32(_ number: UInt64, _ value: Int32) -> WireBytes {
    varint(number, UInt64(bitPattern: Int64(value)))
  }

  func fixed64(_ number: UInt64, _ bits: UInt64) -> WireBytes {
    key(number, 1).raw(withUnsafeBytes(of: bits.littleEndian, Array.init))
  }

  func fixed32(_ number: UInt64, _ bits: UInt32) -> WireBytes {
    key(number, 5).raw(withUnsafeBytes(of: bits.littleEndian, Array.init))
  }

  func double(_ number: UInt64, _ value: Double) -> WireBytes { fixed64(number, value.bitPattern) }

  func float(_ number: UInt64, _ value: Float) -> WireBytes { fixed32(number, value.bitPattern) }

  func bytes(_ number: UInt64, _ payload: [UInt8]) -> WireBytes {
    key(number, 2).raw(Self.varint(UInt64(payload.count))).raw(payload)
  }

  func string(_ number: UInt64, _ text: String) -> WireBytes { bytes(number, Array(text.utf8)) }

  func message(_ number: UInt64, _ nested: WireBytes) -> WireBytes { bytes(number, nested.bytes) }

  func raw(_ more: [UInt8]) -> WireBytes {
    var copy = self
    copy.bytes += more
    return copy
  }

  static func varint(_ value: UInt64) -> [UInt8] {
    var out: [UInt8] = []
    var rest = value
    while rest >= 0x80 {
      out.append(UInt8(rest & 0x7f) | 0x80)
      rest >>= 7
    }
    out.append(UInt8(rest))
    return out
  }
}
