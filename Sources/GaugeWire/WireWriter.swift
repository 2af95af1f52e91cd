/// Writes the protobuf wire format into memory sized beforehand, the
/// counterpart of `WireReader` for the one message written on every unary
/// answer (`WidgetWireWriter`). Sizes come from the static `…Size`
/// functions; writing past the buffer is the caller's error, checked in
/// debug builds.
struct WireWriter {
  private var cursor: UnsafeMutableRawPointer
  private let end: UnsafeMutableRawPointer

  init(_ buffer: UnsafeMutableRawBufferPointer) {
    cursor = buffer.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!
    end = cursor + buffer.count
  }

  var isAtEnd: Bool { cursor == end }

  static func varintSize(_ value: UInt64) -> Int { Varint.size(value) }

  static func keySize(_ number: UInt64) -> Int { varintSize(number << 3) }

  static func lengthDelimitedSize(_ number: UInt64, payload: Int) -> Int {
    keySize(number) + varintSize(UInt64(payload)) + payload
  }

  mutating func key(_ number: UInt64, _ wireType: WireReader.WireType) {
    varint(WireReader.key(number, wireType))
  }

  mutating func varint(_ value: UInt64) {
    Varint.write(value) { byte($0) }
  }

  mutating func fixed64(_ bits: UInt64) {
    assert(end - cursor >= 8)
    cursor.storeBytes(of: bits.littleEndian, as: UInt64.self)
    cursor += 8
  }

  mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
    assert(end - cursor >= bytes.count)
    guard let source = bytes.baseAddress else { return }
    cursor.copyMemory(from: source, byteCount: bytes.count)
    cursor += bytes.count
  }

  private mutating func byte(_ value: UInt8) {
    assert(cursor < end)
    cursor.storeBytes(of: value, as: UInt8.self)
    cursor += 1
  }
}
