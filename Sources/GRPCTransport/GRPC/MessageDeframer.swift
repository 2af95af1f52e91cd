/// Splits a request body into gRPC messages: each is a 1-byte compressed flag,
/// a 4-byte big-endian length, then the bytes. Messages may span DATA frames,
/// and one frame may hold many.
package struct MessageDeframer {
  package struct Message: Equatable {
    package var compressed: Bool
    package var bytes: [UInt8]
  }

  package let maxMessageBytes: Int
  private var buffer: [UInt8] = []
  private var consumed = 0

  package init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// Bytes received but not yet returned as messages.
  package var bufferedBytes: Int { buffer.count - consumed }

  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if consumed > 0, consumed == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      consumed = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Lets go of the buffer when it holds nothing (no more input will come).
  package mutating func releaseBuffer() {
    guard bufferedBytes == 0 else { return }
    buffer = []
    consumed = 0
  }

  /// The next whole message, nil when more bytes are needed.
  /// Throws when the announced length is over the limit, before buffering it.
  package mutating func next() throws(GRPCStatus) -> Message? {
    let available = buffer.count - consumed
    guard available >= 5 else { return nil }
    let flag = buffer[consumed]
    guard flag <= 1 else {
      throw GRPCStatus(.internal, "invalid gRPC message flag \(flag)")
    }
    var length = 0
    for offset in 1...4 { length = length << 8 | Int(buffer[consumed + offset]) }
    guard length <= maxMessageBytes else {
      throw GRPCStatus(
        .resourceExhausted,
        "received message of \(length) bytes exceeds the limit of \(maxMessageBytes) bytes")
    }
    guard available >= 5 + length else { return nil }
    let start = consumed + 5
    let message = Message(compressed: flag == 1, bytes: Array(buffer[start..<start + length]))
    consumed = start + length
    if consumed == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      consumed = 0
    } else if consumed > 64 * 1024 {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    return message
  }
}
