import CLinuxIO
import Glibc

/// Thin wrappers over the system calls GaugeIO needs.
///
/// Each retries `EINTR` (except `close`), reports `EAGAIN`/`EWOULDBLOCK` as `.wouldBlock`
/// where a non-blocking descriptor can legitimately return it, and throws an `IOError` naming
/// the C call for everything else.
public enum Syscall {
  /// Returns `.processed(0)` at end of file.
  public static func read(
    fd: Int32, into buffer: UnsafeMutableRawBufferPointer
  ) throws(IOError) -> IOResult<Int> {
    try nonBlocking("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  public static func write(fd: Int32, buffer: UnsafeRawBufferPointer) throws(IOError) -> IOResult<
    Int
  > {
    try nonBlocking("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
  }

  public static func writev(
    fd: Int32, iovecs: UnsafeBufferPointer<iovec>
  ) throws(IOError) -> IOResult<Int> {
    try nonBlocking("writev") { Glibc.writev(fd, iovecs.baseAddress, Int32(iovecs.count)) }
  }

  /// `send` with `MSG_NOSIGNAL`, so writing to a closed connection fails with `EPIPE` instead of
  /// killing the process with `SIGPIPE`.
  public static func send(fd: Int32, buffer: UnsafeRawBufferPointer) throws(IOError) -> IOResult<
    Int
  > {
    try nonBlocking("send") {
      Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
    }
  }

  /// The gathering form of `send(fd:buffer:)`: `sendmsg` with `MSG_NOSIGNAL`, because `writev`
  /// has no way to suppress `SIGPIPE`.
  public static func sendmsg(
    fd: Int32, iovecs: UnsafeBufferPointer<iovec>
  ) throws(IOError) -> IOResult<Int> {
    var message = msghdr()
    message.msg_iov = UnsafeMutablePointer(mutating: iovecs.baseAddress)
    message.msg_iovlen = iovecs.count
    return try nonBlocking("sendmsg") { Glibc.sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
  }

  /// Sends FIN: the peer reads end of file once what was written is through,
  /// and this side may still read. Errors are ignored: a connection that
  /// cannot be half-closed is about to be closed anyway.
  public static func shutdownWrite(fd: Int32) {
    _ = Glibc.shutdown(fd, Int32(SHUT_WR))
  }

  /// Closes without retrying `EINTR`: Linux has already released the descriptor by then, and a
  /// retry could close one another thread just opened. Errors are ignored because the
  /// descriptor is gone either way and there is nothing a caller could do.
  public static func close(fd: Int32) {
    _ = Glibc.close(fd)
  }

  public static func socket(domain: Int32, type: Int32, protocol: Int32) throws(IOError) -> Int32 {
    try retryingInterrupts("socket") { Glibc.socket(domain, type, `protocol`) }
  }

  public static func bind(fd: Int32, address: SocketAddress) throws(IOError) {
    _ = try retryingInterrupts("bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
  }

  public static func listen(fd: Int32, backlog: Int32) throws(IOError) {
    _ = try retryingInterrupts("listen") { Glibc.listen(fd, backlog) }
  }

  /// Accepts a connection as a non-blocking, close-on-exec descriptor.
  ///
  /// `ECONNABORTED` (the peer gave up while queued) is retried: the next queued connection, if
  /// any, is still worth taking.
  public static func accept4(fd: Int32) throws(IOError) -> IOResult<Int32> {
    let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    while true {
      let result = CLinuxIO.accept4(fd, nil, nil, flags)
      if result >= 0 { return .processed(result) }
      switch errno {
      case EINTR, ECONNABORTED: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: throw IOError(call: "accept4", errno: code)
      }
    }
  }

  /// Starts connecting; returns false while a non-blocking connect is still in progress.
  ///
  /// `EINTR` is not retried: the kernel keeps connecting in the background, and a second
  /// `connect` would fail with `EALREADY`, so it is reported as in progress.
  public static func connect(fd: Int32, address: SocketAddress) throws(IOError) -> Bool {
    if address.withSockAddr({ Glibc.connect(fd, $0, $1) }) == 0 { return true }
    switch errno {
    case EINPROGRESS, EINTR: return false
    case let code: throw IOError(call: "connect", errno: code)
    }
  }

  public static func setsockopt(
    fd: Int32, level: Int32, option: Int32, value: Int32
  ) throws(IOError) {
    var value = value
    _ = try retryingInterrupts("setsockopt") {
      Glibc.setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }
  }

  public static func getsockopt(fd: Int32, level: Int32, option: Int32) throws(IOError) -> Int32 {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    _ = try retryingInterrupts("getsockopt") {
      Glibc.getsockopt(fd, level, option, &value, &length)
    }
    return value
  }

  public static func getsockname(fd: Int32) throws(IOError) -> SocketAddress {
    try socketAddress("getsockname", fd: fd, Glibc.getsockname)
  }

  /// The address of a connected socket's peer.
  public static func getpeername(fd: Int32) throws(IOError) -> SocketAddress {
    try socketAddress("getpeername", fd: fd, Glibc.getpeername)
  }

  /// The address `call` (getsockname or getpeername) reads for `fd`.
  private static func socketAddress(
    _ name: String, fd: Int32,
    _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
  ) throws(IOError) -> SocketAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = try retryingInterrupts(name) {
      withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
      }
    }
    guard let address = SocketAddress(storage: storage) else {
      throw IOError(call: name, errno: EAFNOSUPPORT)
    }
    return address
  }

  public static func setNonBlocking(fd: Int32) throws(IOError) {
    let flags = try retryingInterrupts("fcntl") { fcntl(fd, F_GETFL) }
    _ = try retryingInterrupts("fcntl") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
  }

  /// Blocks until `fd` is writable or has failed; used to finish a non-blocking connect.
  /// Returns false when `timeoutMilliseconds` (-1: no limit) passed first.
  @discardableResult
  public static func waitUntilWritable(fd: Int32, timeoutMilliseconds: Int32 = -1) throws(IOError)
    -> Bool
  {
    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    // A retried interrupt restarts the full timeout; a connect timeout is not that precise.
    let ready = try retryingInterrupts("poll") { poll(&descriptor, 1, timeoutMilliseconds) }
    return ready > 0
  }

  /// Opens (or with `O_CREAT`, creates) a file; `O_CLOEXEC` is always added.
  public static func open(path: String, flags: Int32, mode: mode_t = 0o644) throws(IOError)
    -> Int32
  {
    try retryingInterrupts("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
  }

  /// Creates one directory; an existing one is not an error.
  public static func mkdir(path: String, mode: mode_t = 0o755) throws(IOError) {
    if Glibc.mkdir(path, mode) == 0 { return }
    let code = errno
    guard code == EEXIST else { throw IOError(call: "mkdir", errno: code) }
    var status = stat()
    guard stat(path, &status) == 0 else { throw IOError(call: "stat", errno: errno) }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw IOError(call: "mkdir", errno: ENOTDIR) }
  }

  /// Takes an exclusive `flock` without waiting: false when another open
  /// file description holds it.
  public static func tryLockExclusive(fd: Int32) throws(IOError) -> Bool {
    while true {
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK: return false
      case let code: throw IOError(call: "flock", errno: code)
      }
    }
  }

  static func epollCreate() throws(IOError) -> Int32 {
    try retryingInterrupts("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
  }

  static func epollControl(
    epollFD: Int32, operation: Int32, fd: Int32, events: UInt32, data: UInt64
  ) throws(IOError) {
    var event = epoll_event()
    event.events = events
    event.data.u64 = data
    _ = try retryingInterrupts("epoll_ctl") { epoll_ctl(epollFD, operation, fd, &event) }
  }

  /// Returns how many events were stored in `events`. `EINTR` returns 0 instead of retrying,
  /// so the caller recomputes its timeout from the clock.
  static func epollWait(
    epollFD: Int32, events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32
  ) throws(IOError) -> Int {
    let result = epoll_wait(
      epollFD, events.baseAddress, Int32(events.count), timeoutMilliseconds)
    if result >= 0 { return Int(result) }
    let code = errno
    if code == EINTR { return 0 }
    throw IOError(call: "epoll_wait", errno: code)
  }

  static func eventfd() throws(IOError) -> Int32 {
    try retryingInterrupts("eventfd") {
      CLinuxIO.eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    }
  }

  static func retryingInterrupts<Result: BinaryInteger>(
    _ call: String, _ body: () -> Result
  ) throws(IOError) -> Result {
    while true {
      let result = body()
      if result >= 0 { return result }
      let code = errno
      if code != EINTR { throw IOError(call: call, errno: code) }
    }
  }

  private static func nonBlocking(
    _ call: String, _ body: () -> Int
  ) throws(IOError) -> IOResult<Int> {
    while true {
      let result = body()
      if result >= 0 { return .processed(result) }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: throw IOError(call: call, errno: code)
      }
    }
  }
}
