import GaugeIO

/// Notices, on the event loop, when whoever reads standard output goes
/// away (`watch --events | head -1`). Otherwise watch would learn it only
/// from its next write, which may be long after: nothing may change for
/// hours. epoll reports the error on a pipe's write end once its read end
/// is closed, with no readiness asked for.
final class OutputClosedWatch: EventLoopHandler {
  private let loop: EventLoop
  private let onClosed: () -> Void
  private var registered = false

  init(loop: EventLoop, onClosed: @escaping () -> Void) {
    self.loop = loop
    self.onClosed = onClosed
  }

  /// A file or a terminal cannot be watched this way, and needs not be.
  func start() {
    guard !registered else { return }
    registered = (try? loop.register(fd: 1, interest: [], handler: self)) != nil
  }

  func stop() {
    guard registered else { return }
    registered = false
    loop.deregister(fd: 1)
  }

  func readable() {}

  func writable() {}

  func hangup() {
    stop()
    onClosed()
  }
}
