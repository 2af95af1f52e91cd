import Glibc

/// A non-blocking, close-on-exec socket accepting connections: TCP, or a
/// Unix domain socket whose file it makes and removes.
///
/// Not thread-safe: use it from one thread, normally its event loop's.
public final class ListeningSocket {
  public let fd: Int32
  /// The bound address; with port 0 this carries the port the kernel chose.
  public let localAddress: SocketAddress
  public private(set) var isClosed = false
  /// Connections the kernel may queue before they are accepted. It caps
  /// any value at `net.core.somaxconn` (4,096 by default), so asking for
  /// the most lets an administrator's setting apply, as grpc's servers do.
  /// A burst of clients then waits in the queue: over a Unix socket a full
  /// queue refuses a connect outright (EAGAIN), where TCP retries its SYN.
  public static let largestBacklog: Int32 = 65_535

  /// The socket file this listener made, removed on close if the path
  /// still names it.
  private let socketFile: (path: String, identity: FileIdentity)?

  /// Binds with `SO_REUSEADDR` (so a restarted server can rebind while old connections sit in
  /// TIME_WAIT) and, when `reusePort` is set, `SO_REUSEPORT` so several loops can each own a
  /// listener on the same port.
  ///
  /// A Unix domain socket's path may hold the file of a server that
  /// stopped without removing it: when nothing accepts connections there
  /// it is replaced. Any other file there, or a live server, makes the
  /// bind fail with `EADDRINUSE`.
  public init(
    address: SocketAddress, backlog: Int32 = ListeningSocket.largestBacklog,
    reusePort: Bool = false
  )
    throws(IOError)
  {
    let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    let fd = try Syscall.socket(domain: address.family, type: type, protocol: 0)
    let boundAddress: SocketAddress
    do throws(IOError) {
      if let path = address.unixPath {
        precondition(!reusePort, "SO_REUSEPORT does not apply to Unix domain sockets")
        try Self.bindReplacingStaleFile(fd: fd, address: address, path: path)
        guard let identity = try Syscall.fileIdentity(at: path) else {
          throw IOError(call: "bind", errno: ENOENT)
        }
        socketFile = (path, identity)
      } else {
        try Syscall.setsockopt(fd: fd, level: SOL_SOCKET, option: SO_REUSEADDR, value: 1)
        if reusePort {
          try Syscall.setsockopt(fd: fd, level: SOL_SOCKET, option: SO_REUSEPORT, value: 1)
        }
        try Syscall.bind(fd: fd, address: address)
        socketFile = nil
      }
      try Syscall.listen(fd: fd, backlog: backlog)
      boundAddress = try Syscall.getsockname(fd: fd)
    } catch {
      Syscall.close(fd: fd)
      throw error
    }
    self.fd = fd
    self.localAddress = boundAddress
  }

  private static func bindReplacingStaleFile(
    fd: Int32, address: SocketAddress, path: String
  ) throws(IOError) {
    do {
      try Syscall.bind(fd: fd, address: address)
    } catch {
      guard error.errno == EADDRINUSE, try Syscall.fileIdentity(at: path)?.isSocket == true,
        !acceptsConnections(at: address)
      else { throw error }
      try Syscall.unlink(path: path)
      try Syscall.bind(fd: fd, address: address)
    }
  }

  /// Whether a process accepts connections on the Unix socket at
  /// `address`. Only a refusal says no: a full queue (a zero timeout) or
  /// any other failure may be a live server, whose file must not be taken.
  private static func acceptsConnections(at address: SocketAddress) -> Bool {
    do {
      try ConnectedSocket.connect(to: address, timeout: .zero).close()
      return true
    } catch {
      return error.errno != ECONNREFUSED
    }
  }

  /// Takes one queued connection, with `TCP_NODELAY` set on TCP.
  public func accept() throws(IOError) -> IOResult<ConnectedSocket> {
    precondition(!isClosed, "accept on a closed ListeningSocket")
    switch try Syscall.accept4(fd: fd) {
    case .wouldBlock:
      return .wouldBlock
    case .processed(let connection):
      return .processed(ConnectedSocket(adopting: connection, isTCP: socketFile == nil))
    }
  }

  /// Idempotent. Deregister the descriptor from its event loop first.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    // Only the file this listener made: another server may have taken
    // the path since. Its inode cannot be another file's while the
    // socket, still open here, holds it.
    if let socketFile, (try? Syscall.fileIdentity(at: socketFile.path)) == socketFile.identity {
      try? Syscall.unlink(path: socketFile.path)
    }
    Syscall.close(fd: fd)
  }

  deinit {
    close()
  }
}
