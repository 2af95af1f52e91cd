import GaugeIO
import Glibc

// A test's client side of a connection: it has no loop, so it waits with poll.
extension ConnectedSocket {
  func writeAll(_ text: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let result = try bytes.withUnsafeBytes { try write($0) }
      switch result {
      case .processed(let count): bytes = bytes.dropFirst(count)
      case .wouldBlock: _ = waitUntilReady(events: POLLOUT, timeout: .seconds(5))
      }
    }
  }

  /// Reads until `count` bytes arrived, the peer closed, or `timeout` passed.
  func read(count: Int, timeout: Duration = .seconds(5)) throws -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: count)
    let deadline = ContinuousClock.now + timeout
    while received.count < count {
      let result = try buffer.withUnsafeMutableBytes {
        try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<(count - received.count)]))
      }
      switch result {
      case .processed(0): return String(decoding: received, as: UTF8.self)
      case .processed(let n): received += buffer[..<n]
      case .wouldBlock:
        let remaining = deadline - .now
        if remaining <= .zero || !waitUntilReady(events: POLLIN, timeout: remaining) {
          return String(decoding: received, as: UTF8.self)
        }
      }
    }
    return String(decoding: received, as: UTF8.self)
  }

  func waitUntilReady(events: Int32, timeout: Duration) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
    let milliseconds =
      Int32(timeout.components.seconds * 1000)
      + Int32(timeout.components.attoseconds / 1_000_000_000_000_000)
    return poll(&descriptor, 1, milliseconds) == 1
  }
}
