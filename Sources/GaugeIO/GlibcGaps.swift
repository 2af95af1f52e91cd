import Glibc

/// Linux calls that Swift's Glibc module does not import.
///
/// Its module map leaves out `<sys/epoll.h>` and `<sys/eventfd.h>`, and `accept4` and
/// `pthread_setname_np` are hidden behind `_GNU_SOURCE`. This package has no C shim target to
/// declare them, so they are looked up once in the already-loaded libc with `dlsym`; their
/// signatures and constants are part of Linux's stable userspace ABI.
enum GlibcGaps {
  typealias EpollCreate1 = @convention(c) (Int32) -> Int32
  typealias EpollCtl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
  typealias EpollWait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
  typealias Eventfd = @convention(c) (UInt32, Int32) -> Int32
  typealias Accept4 =
    @convention(c) (
      Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
    ) -> Int32
  typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32

  static let epollCreate1 = required("epoll_create1", as: EpollCreate1.self)
  static let epollCtl = required("epoll_ctl", as: EpollCtl.self)
  static let epollWait = required("epoll_wait", as: EpollWait.self)
  static let eventfd = required("eventfd", as: Eventfd.self)
  static let accept4 = required("accept4", as: Accept4.self)
  /// Optional: a thread name only helps debugging.
  static let setThreadName = dlsym(nil, "pthread_setname_np").map {
    unsafeBitCast($0, to: SetThreadName.self)
  }

  // <sys/epoll.h>
  static let epollIn: UInt32 = 0x001
  static let epollOut: UInt32 = 0x004
  static let epollErr: UInt32 = 0x008
  static let epollHup: UInt32 = 0x010
  static let epollRdHup: UInt32 = 0x2000
  static let epollCtlAdd: Int32 = 1
  static let epollCtlDel: Int32 = 2
  static let epollCtlMod: Int32 = 3
  static let epollCloexec: Int32 = O_CLOEXEC

  // <sys/eventfd.h>
  static let eventfdCloexec: Int32 = O_CLOEXEC
  static let eventfdNonBlock: Int32 = O_NONBLOCK

  private static func required<Function>(_ name: String, as type: Function.Type) -> Function {
    guard let symbol = dlsym(nil, name) else {
      fatalError("libc does not export \(name)")
    }
    return unsafeBitCast(symbol, to: type)
  }
}
