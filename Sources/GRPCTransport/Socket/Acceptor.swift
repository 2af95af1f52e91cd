import GaugeIO
import GaugeLog
import GaugeTLS
import Glibc

/// Accepts connections on one loop and hands each to a loop of the group,
/// round-robin, where it lives for the rest of its life.
final class Acceptor: EventLoopHandler {
  private let listener: ListeningSocket
  private let loop: EventLoop
  private let pickLoop: () -> LoopContext
  /// Set on a TLS listener: every connection it accepts speaks TLS.
  private let tls: ServerTLSConfiguration?
  /// Set while accepting is paused (see `pause`).
  private var resumeTimer: TimerHandle?
  /// Whether this run of pauses has been reported yet.
  private var pauseReported = false

  /// Accepts per readiness event before yielding to established connections.
  private static let acceptsPerEvent = 64
  /// How long accepting rests when the process is out of descriptors or
  /// memory. The waiting connections stay in the listen queue meanwhile.
  static let pauseMilliseconds = 100

  private let log: EventLog

  init(
    listener: ListeningSocket, tls: ServerTLSConfiguration?, loop: EventLoop, log: EventLog,
    pickLoop: @escaping () -> LoopContext
  ) {
    self.tls = tls
    self.log = log
    self.listener = listener
    self.loop = loop
    self.pickLoop = pickLoop
  }

  func start() throws(IOError) {
    try loop.register(fd: listener.fd, interest: .readable, handler: self)
  }

  func readable() {
    for _ in 0..<Self.acceptsPerEvent {
      let accepted: IOResult<ConnectedSocket>
      do {
        accepted = try listener.accept()
      } catch {
        // The listener is level-triggered: while descriptors are exhausted
        // it stays readable, and retrying on every turn spun a core at 100%.
        if Self.isLostConnection(error.errno) { continue }
        pause(after: error)
        return
      }
      guard case .processed(let socket) = accepted else { return }
      pauseReported = false
      let target = pickLoop()
      let transfer = SocketTransfer(socket: socket)
      let tls = self.tls
      if target.loop === loop {
        target.adopt(transfer.socket, tls: tls)
      } else {
        target.loop.execute { target.adopt(transfer.socket, tls: tls) }
      }
    }
  }

  /// accept4 also reports a network error of the connection it was about
  /// to return: that connection is gone, the next one may be fine.
  static func isLostConnection(_ code: Int32) -> Bool {
    switch code {
    case ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH,
      EOPNOTSUPP, ENETUNREACH:
      true
    default:
      false
    }
  }

  /// Stops watching the listener for `pauseMilliseconds` (EMFILE,
  /// ENFILE, ENOBUFS, ENOMEM: nothing to do but wait for connections to
  /// close), and says so once per run of failures.
  private func pause(after error: IOError) {
    guard resumeTimer == nil else { return }
    if !pauseReported {
      pauseReported = true
      log.warn(
        "accept_paused",
        "cannot accept connections (\(error)); trying again every \(Self.pauseMilliseconds) ms",
        [LogField("listener", listener.localAddress.description), LogField("error", "\(error)")])
    }
    do {
      try loop.setInterest(fd: listener.fd, [])
    } catch {
      return  // Still watched: the next turn retries, as before.
    }
    resumeTimer = loop.schedule(after: .milliseconds(Self.pauseMilliseconds)) { [weak self] in
      guard let self, self.resumeTimer != nil else { return }
      self.resumeTimer = nil
      try? self.loop.setInterest(fd: self.listener.fd, .readable)
    }
  }

  func writable() {}

  func hangup() {}

  func stop() {
    if let resumeTimer {
      loop.cancel(resumeTimer)
      self.resumeTimer = nil
    }
    loop.deregister(fd: listener.fd)
    listener.close()
  }
}

/// @unchecked Sendable: the accepting loop gives the socket up entirely the
/// moment it hands it over; only the receiving loop touches it afterwards.
struct SocketTransfer: @unchecked Sendable {
  let socket: ConnectedSocket
}
