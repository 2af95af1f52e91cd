/// Whether bytes are UTF-8: JSON must be, and protobuf strings must be to
/// be written as JSON. Most are ASCII, which a pass eight bytes at a time
/// settles.
enum UTF8Check {
  static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    var highBits: UInt64 = 0
    while offset + 8 <= bytes.count {
      highBits |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < bytes.count {
      highBits |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
      offset += 1
    }
    guard highBits & 0x8080_8080_8080_8080 != 0 else { return true }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }
}
