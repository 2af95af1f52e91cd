/// Writes gRPC's length prefix in front of each response message.
package enum MessageFramer {
  /// The compressed flag and the big-endian length.
  package static let prefixBytes = 5

  package static func append(_ message: [UInt8], compressed: Bool = false, to buffer: inout [UInt8])
  {
    let length = UInt32(message.count)
    // An empty buffer gets one allocation for prefix and message, rather
    // than one for the prefix and another for the message. Only when empty:
    // reserving exact sizes as a buffer fills would defeat its geometric
    // growth.
    if buffer.isEmpty { buffer.reserveCapacity(prefixBytes + message.count) }
    appendPrefix(length: length, compressed: compressed, to: &buffer)
    buffer.append(contentsOf: message)
  }

  /// Appends the prefix of an uncompressed message of `size` bytes, then
  /// the message, which `write` lays out. A small message is laid out on
  /// the stack and appended with one copy: growing the array by `size`
  /// zeros first cost more than the message's own encoding.
  package static func append(
    size: Int, to buffer: inout [UInt8], writingWith write: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    if buffer.isEmpty { buffer.reserveCapacity(prefixBytes + size) }
    let framedSize = prefixBytes + size
    guard framedSize <= stackFramedBytes else {
      appendPrefix(length: UInt32(size), compressed: false, to: &buffer)
      let start = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: size))
      buffer.withUnsafeMutableBytes { bytes in
        write(UnsafeMutableRawBufferPointer(rebasing: bytes[start..<start + size]))
      }
      return
    }
    withUnsafeTemporaryAllocation(byteCount: framedSize, alignment: 1) { framed in
      writePrefix(length: UInt32(size), compressed: false, to: framed)
      write(UnsafeMutableRawBufferPointer(rebasing: framed[prefixBytes...]))
      buffer.append(contentsOf: UnsafeRawBufferPointer(framed))
    }
  }

  /// Up to this, a temporary allocation stays on the stack; above it the
  /// standard library may take it from the heap.
  private static let stackFramedBytes = 1024

  private static func appendPrefix(length: UInt32, compressed: Bool, to buffer: inout [UInt8]) {
    withUnsafeTemporaryAllocation(byteCount: prefixBytes, alignment: 1) { prefix in
      writePrefix(length: length, compressed: compressed, to: prefix)
      buffer.append(contentsOf: UnsafeRawBufferPointer(prefix))
    }
  }

  /// The prefix's layout, in the first `prefixBytes` of `bytes`: the
  /// compressed flag, then the length, big-endian.
  private static func writePrefix(
    length: UInt32, compressed: Bool, to bytes: UnsafeMutableRawBufferPointer
  ) {
    bytes[0] = compressed ? 1 : 0
    bytes[1] = UInt8(truncatingIfNeeded: length >> 24)
    bytes[2] = UInt8(truncatingIfNeeded: length >> 16)
    bytes[3] = UInt8(truncatingIfNeeded: length >> 8)
    bytes[4] = UInt8(truncatingIfNeeded: length)
  }
}
