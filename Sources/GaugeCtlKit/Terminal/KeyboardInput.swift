import GaugeIO

/// Keys typed while `watch` runs full screen, read on the event loop.
final class KeyboardInput: EventLoopHandler {
  private let loop: EventLoop
  private let onKey: (UInt8) -> Void
  private var registered = false

  init(loop: EventLoop, onKey: @escaping (UInt8) -> Void) {
    self.loop = loop
    self.onKey = onKey
  }

  func start() {
    guard !registered else { return }
    registered = (try? loop.register(fd: 0, interest: .readable, handler: self)) != nil
  }

  func stop() {
    guard registered else { return }
    registered = false
    loop.deregister(fd: 0)
  }

  func readable() {
    var buffer = [UInt8](repeating: 0, count: 64)
    let result = try? buffer.withUnsafeMutableBytes { bytes throws(IOError) in
      try Syscall.read(fd: 0, into: bytes)
    }
    switch result {
    case .processed(let count)? where count > 0:
      for byte in buffer[0..<count] { onKey(byte) }
    case .wouldBlock?:
      return
    default:
      // End of input or an error: nothing more will be typed.
      stop()
    }
  }

  func writable() {}

  func hangup() {
    stop()
  }
}
