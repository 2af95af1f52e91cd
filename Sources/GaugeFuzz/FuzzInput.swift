/// The fuzzer's bytes read front to back as the operands of a program.
/// Running out is normal: every read then answers nil and the program ends,
/// so any input is a valid program.
struct FuzzInput {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isExhausted: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// Little-endian, so that a short tail still reads as a small number.
  mutating func uint16() -> UInt16? {
    guard let low = byte() else { return nil }
    return UInt16(low) | UInt16(byte() ?? 0) << 8
  }

  /// Up to `count` bytes: fewer when the input ends first.
  mutating func bytes(upTo count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + count)
    defer { offset = end }
    return Array(bytes[offset..<end])
  }

  /// Printable ASCII, for header values a well-behaved client may send.
  mutating func headerText(upTo count: Int) -> String {
    String(decoding: bytes(upTo: count).map { 0x20 + $0 % 0x5F }, as: UTF8.self)
  }
}
