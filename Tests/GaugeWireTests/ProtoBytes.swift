// A protobuf writer for tests, independent of protobuf-c, so tests can send
// what a C client never would: invalid UTF-8, unknown enum numbers, fields
// in any order, truncations.
struct ProtoBytes {
  private(set) var bytes: [UInt8] = []

  func varint(_ number: UInt64, _ value: UInt64) -> Self {
    appending(key(number, wireType: 0) + Self.varint(value))
  }

  func double(_ number: UInt64, _ value: Double) -> Self {
    appending(
      key(number, wireType: 1) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init))
  }

  func string(_ number: UInt64, _ value: String) -> Self {
    raw(number, Array(value.utf8))
  }

  func message(_ number: UInt64, _ value: ProtoBytes) -> Self {
    raw(number, value.bytes)
  }

  /// Any length-delimited payload.
  func raw(_ number: UInt64, _ payload: [UInt8]) -> Self {
    appending(key(number, wireType: 2) + Self.varint(UInt64(payload.count)) + payload)
  }

  static func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var out: [UInt8] = []
    while value >= 0x80 {
      out.append(UInt8(value & 0x7f) | 0x80)
      value >>= 7
    }
    out.append(UInt8(value))
    return out
  }

  private func key(_ number: UInt64, wireType: UInt64) -> [UInt8] {
    Self.varint(number << 3 | wireType)
  }

  private func appending(_ more: [UInt8]) -> Self {
    var copy = self
    copy.bytes += more
    return copy
  }
}
