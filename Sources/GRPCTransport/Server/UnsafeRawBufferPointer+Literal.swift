import Glibc

extension UnsafeRawBufferPointer {
  /// Whether these bytes are exactly `literal`'s UTF-8: how header names and
  /// values are recognised without making a String of them. Up to 16 bytes
  /// are compared as two overlapping words; a `memcmp` call cost more than
  /// the comparison for names this short.
  @inline(__always)
  func hasBytes(of literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard count == length, let baseAddress else { return false }
    let expected = UnsafeRawPointer(literal.utf8Start)
    func word<Word: FixedWidthInteger>(_ type: Word.Type, at offset: Int) -> Bool {
      baseAddress.loadUnaligned(fromByteOffset: offset, as: Word.self)
        == expected.loadUnaligned(fromByteOffset: offset, as: Word.self)
    }
    switch length {
    case 0: return true
    case 1: return baseAddress.load(as: UInt8.self) == expected.load(as: UInt8.self)
    case 2..<4: return word(UInt16.self, at: 0) && word(UInt16.self, at: length - 2)
    case 4..<8: return word(UInt32.self, at: 0) && word(UInt32.self, at: length - 4)
    case 8...16: return word(UInt64.self, at: 0) && word(UInt64.self, at: length - 8)
    default: return memcmp(baseAddress, expected, length) == 0
    }
  }
}
