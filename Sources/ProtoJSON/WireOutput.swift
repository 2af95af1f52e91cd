/// Protobuf's wire format written into one growing array.
struct WireOutput {
  var bytes: [UInt8]

  init(capacity: Int) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  mutating func key(_ number: UInt32, _ wireType: WireType) {
    varint(UInt64(number) << 3 | UInt64(wireType.rawValue))
  }

  mutating func varint(_ value: UInt64) {
    // Keys, lengths and small numbers nearly always take one byte.
    guard value >= 0x80 else { return bytes.append(UInt8(value)) }
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// Bytes read in place from the input (a string without escapes).
  mutating func append(_ raw: UnsafeRawBufferPointer) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(
        start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
  }

  mutating func fixed32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func fixed64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// Starts a length-delimited value whose length is not known yet: one
  /// byte is set aside for it (the usual size of a small message's
  /// length). Returns where the value starts, for `endLengthDelimited`.
  mutating func beginLengthDelimited() -> Int {
    bytes.append(0)
    return bytes.count
  }

  /// Sets the length of the value started at `start`, moving the value
  /// along when its length takes more than one byte.
  mutating func endLengthDelimited(_ start: Int) {
    let length = UInt64(bytes.count - start)
    guard length >= 0x80 else {
      bytes[start - 1] = UInt8(length)
      return
    }
    var prefix = WireOutput(capacity: 10)
    prefix.varint(length)
    bytes.replaceSubrange((start - 1)..<start, with: prefix.bytes)
  }
}
