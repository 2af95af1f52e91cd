/// Walks the fields of one serialized protobuf message without a schema:
/// enough to read the few descriptor.proto fields reflection needs, to cut
/// a FileDescriptorSet into its files byte for byte, and to take a
/// `google.rpc.Status` apart for the web protocols' error bodies.
package struct ProtoWireReader {
  package enum Value {
    case varint(UInt64)
    /// A length-delimited field: a string, bytes or a nested message.
    case bytes(ArraySlice<UInt8>)
    /// A fixed 32- or 64-bit field, skipped.
    case fixed
  }

  package struct Malformed: Error, Equatable {
    package var offset: Int
  }

  private let bytes: ArraySlice<UInt8>
  private var position: Int

  package init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.position = bytes.startIndex
  }

  /// The next field, nil at the end.
  package mutating func next() throws(Malformed) -> (number: Int, value: Value)? {
    guard position < bytes.endIndex else { return nil }
    let key = try varint()
    let number = Int(key >> 3)
    guard number > 0, number <= 536_870_911 else { throw Malformed(offset: position) }
    switch key & 7 {
    case 0:
      return (number, .varint(try varint()))
    case 1:
      try skip(8)
      return (number, .fixed)
    case 2:
      let length = try varint()
      guard length <= UInt64(bytes.endIndex - position) else { throw Malformed(offset: position) }
      let start = position
      position += Int(length)
      return (number, .bytes(bytes[start..<position]))
    case 5:
      try skip(4)
      return (number, .fixed)
    default:
      // Groups (3, 4) and unknown wire types: not in descriptors we serve.
      throw Malformed(offset: position)
    }
  }

  private mutating func varint() throws(Malformed) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while position < bytes.endIndex, shift < 64 {
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    throw Malformed(offset: position)
  }

  private mutating func skip(_ count: Int) throws(Malformed) {
    guard bytes.endIndex - position >= count else { throw Malformed(offset: position) }
    position += count
  }
}

extension ProtoWireReader.Value {
  package var text: String? {
    guard case .bytes(let bytes) = self else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  package var message: ArraySlice<UInt8>? {
    guard case .bytes(let bytes) = self else { return nil }
    return bytes
  }
}
