import Glibc

/// A non-blocking, close-on-exec TCP socket accepting connections.
///
/// Not thread-safe: use it from one thread, normally its event loop's.
public final class ListeningSocket {
  public let fd: Int32
  /// The bound address; with port 0 this carries the port the kernel chose.
  public let localAddress: SocketAddress
  public private(set) var isClosed = false

  /// Binds with `SO_REUSEADDR` (so a restarted server can rebind while old connections sit in
  /// TIME_WAIT) and, when `reusePort` is set, `SO_REUSEPORT` so several loops can each own a
  /// listener on the same port.
  public init(address: SocketAddress, backlog: Int32 = 1024, reusePort: Bool = false)
    throws(IOError)
  {
    let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    let fd = try Syscall.socket(domain: address.family, type: type, protocol: 0)
    let boundAddress: SocketAddress
    do throws(IOError) {
      try Syscall.setsockopt(fd: fd, level: SOL_SOCKET, option: SO_REUSEADDR, value: 1)
      if reusePort {
        try Syscall.setsockopt(fd: fd, level: SOL_SOCKET, option: SO_REUSEPORT, value: 1)
      }
      try Syscall.bind(fd: fd, address: address)
      try Syscall.listen(fd: fd, backlog: backlog)
      boundAddress = try Syscall.getsockname(fd: fd)
    } catch {
      Syscall.close(fd: fd)
      throw error
    }
    self.fd = fd
    self.localAddress = boundAddress
  }

  /// Takes one queued connection, with `TCP_NODELAY` set.
  public func accept() throws(IOError) -> IOResult<ConnectedSocket> {
    precondition(!isClosed, "accept on a closed ListeningSocket")
    switch try Syscall.accept4(fd: fd) {
    case .wouldBlock:
      return .wouldBlock
    case .processed(let connection):
      return .processed(ConnectedSocket(adopting: connection))
    }
  }

  /// Idempotent. Deregister the descriptor from its event loop first.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    Syscall.close(fd: fd)
  }

  deinit {
    close()
  }
}
