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
  /// the message, which `write` puts straight into `buffer`.
  package static func append(
    size: Int, to buffer: inout [UInt8], writingWith write: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    if buffer.isEmpty { buffer.reserveCapacity(5 + size) }
    appendPrefix(length: UInt32(size), compressed: false, to: &buffer)
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: size))
    buffer.withUnsafeMutableBytes { bytes in
      write(UnsafeMutableRawBufferPointer(rebasing: bytes[start..<start + size]))
    }
  }

  private static func appendPrefix(length: UInt32, compressed: Bool, to buffer: inout [UInt8]) {
    buffer.append(compressed ? 1 : 0)
    buffer.append(UInt8(truncatingIfNeeded: length >> 24))
    buffer.append(UInt8(truncatingIfNeeded: length >> 16))
    buffer.append(UInt8(truncatingIfNeeded: length >> 8))
    buffer.append(UInt8(truncatingIfNeeded: length))
  }
}
