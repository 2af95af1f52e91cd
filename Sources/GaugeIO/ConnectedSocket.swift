import Glibc

/// A non-blocking, close-on-exec connection: TCP with `TCP_NODELAY` set, or
/// a Unix domain socket.
///
/// Not thread-safe: use it from one thread, normally its event loop's. Closes its descriptor on
/// deinit if `close()` was not called.
public final class ConnectedSocket {
  public let fd: Int32
  public private(set) var isClosed = false

  /// Takes ownership of a connected, non-blocking descriptor.
  init(adopting fd: Int32, isTCP: Bool) {
    self.fd = fd
    // Best effort: a connection whose peer already reset can refuse the option, and the
    // failure will surface on the first read or write instead.
    if isTCP {
      try? Syscall.setsockopt(fd: fd, level: Int32(IPPROTO_TCP), option: TCP_NODELAY, value: 1)
    }
  }

  /// Connects, waiting for the handshake on the calling thread; for clients and tests.
  /// Without a `timeout` the wait lasts as long as the kernel keeps trying; when it runs out
  /// the error is `ETIMEDOUT` from `connect`.
  ///
  /// A Unix domain socket whose listen queue is full refuses at once with
  /// `EAGAIN` where TCP would retransmit its SYN: the attempt is repeated
  /// every millisecond within the same `timeout`, as TCP's wait would be.
  public static func connect(
    to address: SocketAddress, timeout: Duration? = nil
  ) throws(IOError) -> ConnectedSocket {
    let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    let fd = try Syscall.socket(domain: address.family, type: type, protocol: 0)
    let deadline = timeout.map { ContinuousClock.now + $0 }
    do throws(IOError) {
      if try !connectWaitingForRoom(fd: fd, address: address, deadline: deadline) {
        let milliseconds = timeout.map(Self.pollMilliseconds) ?? -1
        if try !Syscall.waitUntilWritable(fd: fd, timeoutMilliseconds: milliseconds) {
          throw IOError(call: "connect", errno: ETIMEDOUT)
        }
        let failure = try Syscall.getsockopt(fd: fd, level: SOL_SOCKET, option: SO_ERROR)
        if failure != 0 { throw IOError(call: "connect", errno: failure) }
      }
    } catch {
      Syscall.close(fd: fd)
      throw error
    }
    return ConnectedSocket(adopting: fd, isTCP: address.unixPath == nil)
  }

  private static func connectWaitingForRoom(
    fd: Int32, address: SocketAddress, deadline: ContinuousClock.Instant?
  ) throws(IOError) -> Bool {
    while true {
      do {
        return try Syscall.connect(fd: fd, address: address)
      } catch {
        guard error.errno == EAGAIN, address.unixPath != nil else { throw error }
        if let deadline, ContinuousClock.now >= deadline {
          throw IOError(call: "connect", errno: ETIMEDOUT)
        }
        usleep(1000)
      }
    }
  }

  /// Whole milliseconds for `poll`, rounded up and capped at `Int32.max`.
  private static func pollMilliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    guard seconds < Int64(Int32.max / 1000) else { return .max }
    return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
  }

  /// Returns `.processed(0)` once the peer has closed its sending side.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> IOResult<Int> {
    precondition(!isClosed, "read on a closed ConnectedSocket")
    return try Syscall.read(fd: fd, into: buffer)
  }

  public func write(_ bytes: UnsafeRawBufferPointer) throws(IOError) -> IOResult<Int> {
    precondition(!isClosed, "write on a closed ConnectedSocket")
    return try Syscall.send(fd: fd, buffer: bytes)
  }

  /// Writes several buffers with one call, in order.
  public func write(vectored iovecs: UnsafeBufferPointer<iovec>) throws(IOError) -> IOResult<Int> {
    precondition(!isClosed, "write on a closed ConnectedSocket")
    return try Syscall.sendmsg(fd: fd, iovecs: iovecs)
  }

  /// Ends this side's sending; reading goes on until the peer ends its own.
  public func shutdownWrite() {
    precondition(!isClosed, "shutdown on a closed ConnectedSocket")
    Syscall.shutdownWrite(fd: fd)
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
