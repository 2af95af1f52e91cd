/// Reads the protobuf wire format field by field, refusing to read past the
/// end instead of trapping.
struct WireReader {
  enum WireType: UInt64 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
  }

  struct Field {
    var number: UInt64
    var wireType: WireType
    /// The payload of a length-delimited field; empty for the others.
    var payload: UnsafeRawBufferPointer
    /// The value of a varint field, or the little-endian bits of a fixed
    /// one; zero for length-delimited fields.
    var scalar: UInt64 = 0
  }

  private static var noPayload: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: nil, count: 0)
  }
  private let bytes: UnsafeRawBufferPointer
  private(set) var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { offset >= bytes.count }

  /// The next field, or nil when the bytes are malformed (including groups,
  /// which protobuf-c does not support either).
  mutating func nextField() -> Field? {
    guard let key = varint(), let wireType = WireType(rawValue: key & 7) else { return nil }
    let number = key >> 3
    switch wireType {
    case .varint:
      guard let value = varint() else { return nil }
      return Field(number: number, wireType: wireType, payload: Self.noPayload, scalar: value)
    case .fixed64:
      guard let bits = skip(8) else { return nil }
      return Field(
        number: number, wireType: wireType, payload: Self.noPayload,
        scalar: UInt64(littleEndian: bits.loadUnaligned(as: UInt64.self)))
    case .fixed32:
      guard let bits = skip(4) else { return nil }
      return Field(
        number: number, wireType: wireType, payload: Self.noPayload,
        scalar: UInt64(UInt32(littleEndian: bits.loadUnaligned(as: UInt32.self))))
    case .lengthDelimited:
      guard let length = varint(), let payload = skip(length) else { return nil }
      return Field(number: number, wireType: wireType, payload: payload)
    }
  }

  private mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    for shift in stride(from: UInt64(0), to: 70, by: 7) {
      guard offset < bytes.count else { return nil }
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7f) << shift
      if byte & 0x80 == 0 { return value }
    }
    return nil
  }

  private mutating func skip(_ count: UInt64) -> UnsafeRawBufferPointer? {
    guard count <= UInt64(bytes.count - offset) else { return nil }
    let start = offset
    offset += Int(count)
    return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
  }
}
