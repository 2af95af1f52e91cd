/// Bytes on their way into a non-blocking socket: one buffer, refilled at
/// its end and written from an offset, so a partial write copies nothing.
public struct SocketOutput {
  private var bytes: [UInt8] = []
  private var offset = 0

  public init() {}

  /// Bytes not written yet.
  public var pending: Int { bytes.count - offset }

  /// Drops what was written, then lets `fill` append to the buffer.
  public mutating func refill<Result>(_ fill: (inout [UInt8]) -> Result) -> Result {
    bytes.removeFirst(offset)
    offset = 0
    return fill(&bytes)
  }

  /// Writes until nothing is pending or the socket takes no more; returns
  /// the bytes written and whether everything went.
  public mutating func write(to socket: ConnectedSocket) throws(IOError) -> (
    written: Int, drained: Bool
  ) {
    var written = 0
    while offset < bytes.count {
      let start = offset
      let result = bytes.withUnsafeBytes { buffer in
        Result { () throws(IOError) in
          try socket.write(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
      }
      switch try result.get() {
      case .processed(let count):
        offset += count
        written += count
      case .wouldBlock:
        return (written, false)
      }
    }
    // All written: start over, letting go of a buffer a burst made large.
    bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
    offset = 0
    return (written, true)
  }
}
