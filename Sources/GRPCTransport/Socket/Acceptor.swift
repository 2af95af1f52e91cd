import GaugeIO

/// Accepts connections on one loop and hands each to a loop of the group,
/// round-robin, where it lives for the rest of its life.
final class Acceptor: EventLoopHandler {
  private let listener: ListeningSocket
  private let loop: EventLoop
  private let pickLoop: () -> LoopContext

  /// Accepts per readiness event before yielding to established connections.
  private static let acceptsPerEvent = 64

  init(listener: ListeningSocket, loop: EventLoop, pickLoop: @escaping () -> LoopContext) {
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
        // EMFILE and friends: the pending connection stays queued and the
        // next turn tries again; nothing else is affected.
        return
      }
      guard case .processed(let socket) = accepted else { return }
      let target = pickLoop()
      let transfer = SocketTransfer(socket: socket)
      if target.loop === loop {
        target.adopt(transfer.socket)
      } else {
        target.loop.execute { target.adopt(transfer.socket) }
      }
    }
  }

  func writable() {}

  func hangup() {}

  func stop() {
    loop.deregister(fd: listener.fd)
    listener.close()
  }
}

/// @unchecked Sendable: the accepting loop gives the socket up entirely the
/// moment it hands it over; only the receiving loop touches it afterwards.
struct SocketTransfer: @unchecked Sendable {
  let socket: ConnectedSocket
}
