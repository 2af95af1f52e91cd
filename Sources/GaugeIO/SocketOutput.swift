/// Bytes on their way into a non-blocking socket: one buffer, refilled at
/// its end and written from an offset, so a partial write copies nothing.
public struct SocketOutput {
  private var bytes: [UInt8] = []
  private var offset = 0

  public init() {}

  /// Bytes not written yet.
  public var pending: Int { bytes.count - offset }

  /// Lets go of the buffer when nothing is pending (an idle connection).
  public mutating func releaseBuffer() {
    guard pending == 0 else { return }
    bytes = []
    offset = 0
  }

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
    let start = offset
    offset = try Self.write(bytes, from: start, to: socket)
    let written = offset - start
    guard offset == bytes.count else { return (written, false) }
    // All written: start over, letting go of a buffer a burst made large.
    bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
    offset = 0
    return (written, true)
  }

  /// Writes `source` when nothing is pending, keeping only what the socket
  /// does not take: `source` is a buffer its owner reuses (one per event
  /// loop), so a connection whose peer keeps up holds no buffer of its own.
  public mutating func write(_ source: [UInt8], to socket: ConnectedSocket) throws(IOError) -> (
    written: Int, drained: Bool
  ) {
    precondition(pending == 0, "write(_:to:) with bytes still pending would reorder them")
    let written = try Self.write(source, from: 0, to: socket)
    guard written < source.count else { return (written, true) }
    bytes.removeAll(keepingCapacity: true)
    bytes.append(contentsOf: source[written...])
    offset = 0
    return (written, false)
  }

  /// Writes `source` from `start` until it is all written or the socket
  /// takes no more; returns where it stopped.
  private static func write(_ source: [UInt8], from start: Int, to socket: ConnectedSocket)
    throws(IOError) -> Int
  {
    var position = start
    while position < source.count {
      let from = position
      let result = source.withUnsafeBytes { buffer in
        Result { () throws(IOError) in
          try socket.write(UnsafeRawBufferPointer(rebasing: buffer[from...]))
        }
      }
      switch try result.get() {
      case .processed(let count): position += count
      case .wouldBlock: return position
      }
    }
    return position
  }
}
