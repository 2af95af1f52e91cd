/// Reads the protobuf wire format field by field, refusing to read past the
/// end instead of trapping.
///
/// It runs on every request (`StringFieldCheck`) and on every event a load
/// generator receives (`peekWidgetEvent`), so it reads through a raw pointer
/// with a fast path for one-byte varints: keys, lengths and small numbers
/// nearly always are one byte.
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
  /// Nil only for empty bytes, where every read stops at `count` first.
  private let base: UnsafeRawPointer?
  private let count: Int
  private(set) var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    base = bytes.baseAddress
    count = bytes.count
  }

  var isAtEnd: Bool { offset >= count }

  /// A field's key as it appears on the wire: `number << 3 | wireType`.
  static func key(_ number: UInt64, _ wireType: WireType) -> UInt64 {
    number << 3 | wireType.rawValue
  }

  /// The next field, or nil when the bytes are malformed (including groups,
  /// which protobuf-c does not support either).
  @inline(__always)
  mutating func nextField() -> Field? {
    guard let key = nextKey(), let wireType = WireType(rawValue: key & 7) else { return nil }
    let number = key >> 3
    switch wireType {
    case .varint:
      guard let value = varint() else { return nil }
      return Field(number: number, wireType: wireType, payload: Self.noPayload, scalar: value)
    case .fixed64:
      guard let bits = fixed64() else { return nil }
      return Field(number: number, wireType: wireType, payload: Self.noPayload, scalar: bits)
    case .fixed32:
      guard let start = skip(4) else { return nil }
      return Field(
        number: number, wireType: wireType, payload: Self.noPayload,
        scalar: UInt64(UInt32(littleEndian: start.loadUnaligned(as: UInt32.self))))
    case .lengthDelimited:
      guard let payload = lengthDelimited() else { return nil }
      return Field(number: number, wireType: wireType, payload: payload)
    }
  }

  // A reader that wants one or two fields reads keys and steps over the
  // rest: no `Field` built per field, no dispatch on the wire type of the
  // fields it wants (see `peekWidgetEvent`).

  /// The next field's key, to be followed by reading or skipping its value.
  @inline(__always)
  mutating func nextKey() -> UInt64? { varint() }

  /// The value of a length-delimited field whose key was just read.
  @inline(__always)
  mutating func lengthDelimited() -> UnsafeRawBufferPointer? {
    guard let length = varint(), let start = skip(length) else { return nil }
    return UnsafeRawBufferPointer(start: start, count: Int(length))
  }

  /// The little-endian bits of a fixed64 field whose key was just read.
  @inline(__always)
  mutating func fixed64() -> UInt64? {
    guard let start = skip(8) else { return nil }
    return UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
  }

  /// The value of a varint field whose key was just read.
  @inline(__always)
  mutating func varintValue() -> UInt64? { varint() }

  /// Steps over the value of the field whose key was just read; false when
  /// the bytes are malformed.
  @inline(__always)
  mutating func skipValue(ofKey key: UInt64) -> Bool {
    switch WireType(rawValue: key & 7) {
    case .varint: varint() != nil
    case .fixed64: skip(8) != nil
    case .fixed32: skip(4) != nil
    case .lengthDelimited: lengthDelimited() != nil
    case nil: false
    }
  }

  @inline(__always)
  private mutating func varint() -> UInt64? {
    guard offset < count, let base else { return nil }
    let first = base.load(fromByteOffset: offset, as: UInt8.self)
    offset &+= 1
    return first < 0x80 ? UInt64(first) : varint(continuing: UInt64(first & 0x7f))
  }

  /// The rest of a varint after its first byte: at most ten bytes in all.
  private mutating func varint(continuing low: UInt64) -> UInt64? {
    guard let base else { return nil }
    var value = low
    var shift: UInt64 = 7
    while offset < count, shift < 64 {
      let byte = base.load(fromByteOffset: offset, as: UInt8.self)
      offset &+= 1
      value |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift &+= 7
    }
    return nil
  }

  /// Steps over `length` bytes and returns where they start.
  @inline(__always)
  private mutating func skip(_ length: UInt64) -> UnsafeRawPointer? {
    guard length <= UInt64(count &- offset), let base else { return nil }
    let start = base + offset
    offset &+= Int(length)
    return start
  }
}
