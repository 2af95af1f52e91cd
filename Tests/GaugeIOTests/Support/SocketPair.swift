import Glibc

/// A connected pair of non-blocking Unix stream sockets, closed on deinit; a cheap way to get
/// descriptors whose readiness a test controls.
final class SocketPair {
  let local: Int32
  let remote: Int32
  private var isClosed = false

  init() {
    var fds: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    let result = socketpair(AF_UNIX, type, 0, &fds)
    precondition(result == 0, "socketpair failed with errno \(errno)")
    local = fds[0]
    remote = fds[1]
  }

  /// Makes `local` readable.
  func sendToLocal(_ byte: UInt8 = 1) {
    var byte = byte
    precondition(Glibc.write(remote, &byte, 1) == 1)
  }

  /// Drains what `sendToLocal` sent.
  func drainLocal() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while Glibc.read(local, &buffer, buffer.count) > 0 {}
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    Glibc.close(local)
    Glibc.close(remote)
  }

  deinit {
    close()
  }
}
