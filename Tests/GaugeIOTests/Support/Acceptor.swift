import GaugeIO
import Testing

/// Accepts every pending connection and registers the handler `makeHandler` builds for it.
final class Acceptor: EventLoopHandler {
  // Unowned: the loop retains its handlers, so a strong reference back would be a cycle.
  private unowned let loop: EventLoop
  private let listener: ListeningSocket
  private let makeHandler: (ConnectedSocket) -> any EventLoopHandler

  init(
    loop: EventLoop, listener: ListeningSocket,
    makeHandler: @escaping (ConnectedSocket) -> any EventLoopHandler
  ) {
    self.loop = loop
    self.listener = listener
    self.makeHandler = makeHandler
  }

  /// Listens on an ephemeral loopback port; returns the port. Call on the loop thread.
  static func listen(
    on loop: EventLoop, makeHandler: @escaping (ConnectedSocket) -> any EventLoopHandler
  ) throws -> Int {
    let listener = try ListeningSocket(address: SocketAddress(parsing: "127.0.0.1:0"))
    let acceptor = Acceptor(loop: loop, listener: listener, makeHandler: makeHandler)
    try loop.register(fd: listener.fd, interest: .readable, handler: acceptor)
    return listener.localAddress.port
  }

  func readable() {
    do {
      while case .processed(let socket) = try listener.accept() {
        try loop.register(fd: socket.fd, interest: .readable, handler: makeHandler(socket))
      }
    } catch {
      Issue.record("accepting failed: \(error)")
    }
  }

  func writable() {}

  func hangup() {
    Issue.record("listening socket hung up")
  }
}
