/// Reads protobuf's wire format one value at a time, refusing to read past
/// the end instead of trapping. Its failures name only what is wrong; the
/// transcoder knows where.
struct WireScanner {
  /// The next field's number and wire type.
  struct Key {
    var number: UInt32
    var wireType: WireType
  }

  /// Nil only for empty bytes, where every read stops at `count` first.
  private let base: UnsafeRawPointer?
  private let count: Int
  private var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    base = bytes.baseAddress
    count = bytes.count
  }

  var isAtEnd: Bool { offset >= count }

  mutating func key() throws(ProtoJSONError) -> Key {
    let key = try varint()
    let number = key >> 3
    guard number > 0, number <= 536_870_911 else {
      throw .body("is not valid protobuf: field number \(number) is out of range")
    }
    guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
      let kind =
        key & 7 == 3 || key & 7 == 4 ? "a group, which protobuf-c does not support" : "unknown"
      throw .body("is not valid protobuf: field \(number) has wire type \(key & 7) (\(kind))")
    }
    return Key(number: UInt32(number), wireType: wireType)
  }

  @inline(__always)
  mutating func varint() throws(ProtoJSONError) -> UInt64 {
    guard offset < count, let base else {
      throw .body("is not valid protobuf: it ends inside a varint")
    }
    let first = base.load(fromByteOffset: offset, as: UInt8.self)
    offset &+= 1
    return first < 0x80 ? UInt64(first) : try varint(continuing: UInt64(first & 0x7f))
  }

  /// The rest of a varint after its first byte: at most ten bytes in all.
  private mutating func varint(continuing low: UInt64) throws(ProtoJSONError) -> UInt64 {
    guard let base else { throw .body("is not valid protobuf: it ends inside a varint") }
    var value = low
    var shift: UInt64 = 7
    while offset < count {
      let byte = base.load(fromByteOffset: offset, as: UInt8.self)
      offset &+= 1
      value |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift &+= 7
      if shift >= 70 { throw .body("is not valid protobuf: a varint is longer than ten bytes") }
    }
    throw .body("is not valid protobuf: it ends inside a varint")
  }

  mutating func fixed32() throws(ProtoJSONError) -> UInt32 {
    let start = try skip(4)
    return UInt32(littleEndian: start.loadUnaligned(as: UInt32.self))
  }

  mutating func fixed64() throws(ProtoJSONError) -> UInt64 {
    let start = try skip(8)
    return UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
  }

  mutating func lengthDelimited() throws(ProtoJSONError) -> UnsafeRawBufferPointer {
    let length = try varint()
    guard length <= UInt64(count &- offset) else {
      throw .body("is not valid protobuf: a length of \(length) runs past the end")
    }
    return UnsafeRawBufferPointer(start: try skip(Int(length)), count: Int(length))
  }

  /// The value of a field whose key was just read, whatever its wire type:
  /// the bits of a scalar, or the payload of a length-delimited field.
  mutating func value(
    _ wireType: WireType
  ) throws(ProtoJSONError) -> (scalar: UInt64, payload: UnsafeRawBufferPointer) {
    switch wireType {
    case .varint: (try varint(), UnsafeRawBufferPointer(start: nil, count: 0))
    case .fixed64: (try fixed64(), UnsafeRawBufferPointer(start: nil, count: 0))
    case .fixed32: (UInt64(try fixed32()), UnsafeRawBufferPointer(start: nil, count: 0))
    case .lengthDelimited: (0, try lengthDelimited())
    }
  }

  private mutating func skip(_ length: Int) throws(ProtoJSONError) -> UnsafeRawPointer {
    guard length <= count &- offset, let base else {
      throw .body("is not valid protobuf: it ends inside a field")
    }
    let start = base + offset
    offset &+= length
    return start
  }
}
