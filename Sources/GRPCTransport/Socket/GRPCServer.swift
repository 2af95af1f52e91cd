import GaugeIO

/// A gRPC server: one listening socket, one event loop per thread, each
/// loop owning the connections handed to it.
public final class GRPCServer: Sendable {
  private let group: EventLoopGroup
  private let contexts: [LoopContext]
  private let acceptor: AcceptorBox

  /// Binds `address` and prepares `threads` loops; `start` begins serving.
  public init(
    address: SocketAddress, threads: Int, configuration: ServerConfiguration,
    services: [any GRPCService]
  ) throws {
    let router = Router(services: services)
    self.group = try EventLoopGroup(threads: max(1, threads))
    self.contexts = group.loops.map {
      LoopContext(loop: $0, router: router, configuration: configuration)
    }
    let listener = try ListeningSocket(address: address)
    var next = 0
    let contexts = self.contexts
    let acceptor = Acceptor(
      listener: listener, loop: contexts[0].loop,
      pickLoop: {
        defer { next = (next + 1) % contexts.count }
        return contexts[next]
      })
    self.acceptor = AcceptorBox(acceptor: acceptor, address: listener.localAddress)
  }

  /// The bound address (the real port when asked for port 0).
  public var localAddress: SocketAddress { acceptor.address }

  public func start() {
    group.start()
    let acceptor = self.acceptor
    contexts[0].loop.execute {
      do {
        try acceptor.acceptor.start()
      } catch {
        fatalError("cannot watch the listening socket: \(error)")
      }
    }
  }

  /// Stops gracefully, returning once done: `onBegin` runs first (the
  /// moment to mark health NOT_SERVING), then the listener closes and every
  /// connection gets a GOAWAY. Calls in flight have `grace` to finish;
  /// those still running then end with UNAVAILABLE. Returns when the last
  /// connection is gone, at most about a second after the grace period.
  public func shutdown(grace: Duration, onBegin: () -> Void = {}) {
    onBegin()
    let acceptor = self.acceptor
    let contexts = self.contexts
    // From the accepting loop, after the listener is closed, so that every
    // connection it handed out is adopted before its loop starts draining.
    contexts[0].loop.execute {
      acceptor.acceptor.stop()
      for context in contexts {
        context.loop.execute {
          context.shutdown(grace: grace) { context.loop.stop() }
        }
      }
    }
    group.join()
  }

  /// Closes the listener and every connection, then stops the loops.
  public func stop() {
    let acceptor = self.acceptor
    for (index, context) in contexts.enumerated() {
      context.loop.execute {
        if index == 0 { acceptor.acceptor.stop() }
        context.closeAll()
      }
    }
    group.stopAndJoin()
  }
}

/// @unchecked Sendable: the acceptor is created before the loops start and
/// afterwards used only on the first loop.
private final class AcceptorBox: @unchecked Sendable {
  let acceptor: Acceptor
  let address: SocketAddress

  init(acceptor: Acceptor, address: SocketAddress) {
    self.acceptor = acceptor
    self.address = address
  }
}
