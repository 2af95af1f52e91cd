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
    if buffer.isEmpty { buffer.reserveCapacity(5 + message.count) }
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
      let length = UInt32(size)
      framed[0] = 0
      framed[1] = UInt8(truncatingIfNeeded: length >> 24)
      framed[2] = UInt8(truncatingIfNeeded: length >> 16)
      framed[3] = UInt8(truncatingIfNeeded: length >> 8)
      framed[4] = UInt8(truncatingIfNeeded: length)
      write(UnsafeMutableRawBufferPointer(rebasing: framed[prefixBytes...]))
      buffer.append(contentsOf: UnsafeRawBufferPointer(framed))
    }
  }

  /// Up to this, a temporary allocation stays on the stack; above it the
  /// standard library may take it from the heap.
  private static let stackFramedBytes = 1024

  private static func appendPrefix(length: UInt32, compressed: Bool, to buffer: inout [UInt8]) {
    buffer.append(compressed ? 1 : 0)
    buffer.append(UInt8(truncatingIfNeeded: length >> 24))
    buffer.append(UInt8(truncatingIfNeeded: length >> 16))
    buffer.append(UInt8(truncatingIfNeeded: length >> 8))
    buffer.append(UInt8(truncatingIfNeeded: length))
  }
}
