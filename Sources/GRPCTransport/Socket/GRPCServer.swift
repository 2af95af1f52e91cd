import GaugeIO
import GaugeTLS

/// An address to serve on, and whether its connections speak TLS.
public struct Listener: Sendable {
  public var address: SocketAddress
  /// nil: cleartext.
  public var tls: ServerTLSConfiguration?

  public init(address: SocketAddress, tls: ServerTLSConfiguration? = nil) {
    self.address = address
    self.tls = tls
  }
}

/// A gRPC server: listening sockets (TCP, Unix, or both), one event loop
/// per thread, each loop owning the connections handed to it.
public final class GRPCServer: Sendable {
  private let group: EventLoopGroup
  private let contexts: [LoopContext]
  private let acceptors: AcceptorBox

  /// Binds `addresses` in order and prepares `threads` loops; `start`
  /// begins serving. Connections from every address share the loops,
  /// round-robin. `httpResponder` answers what is not a gRPC call (by
  /// default, a banner at `/`). With `metrics`, each loop counts calls,
  /// requests and connections there.
  public convenience init(
    addresses: [SocketAddress], threads: Int, configuration: ServerConfiguration,
    services: [any GRPCService], httpResponder: (any HTTPResponder)? = nil,
    metrics: ServerMetrics? = nil
  ) throws {
    try self.init(
      listeners: addresses.map { Listener(address: $0) }, threads: threads,
      configuration: configuration, services: services, httpResponder: httpResponder,
      metrics: metrics)
  }

  /// As `init(addresses:...)`, with TLS on the listeners that have it.
  public init(
    listeners: [Listener], threads: Int, configuration: ServerConfiguration,
    services: [any GRPCService], httpResponder: (any HTTPResponder)? = nil,
    metrics: ServerMetrics? = nil
  ) throws {
    precondition(!listeners.isEmpty, "a server needs an address to listen on")
    let router = Router(services: services)
    self.group = try EventLoopGroup(threads: max(1, threads))
    self.contexts = group.loops.map {
      LoopContext(
        loop: $0, router: router, configuration: configuration, httpResponder: httpResponder,
        metrics: metrics)
    }
    // Bound before any acceptor exists: a listener that fails to bind
    // closes those bound before it as they go out of scope.
    var sockets: [ListeningSocket] = []
    for listener in listeners {
      do {
        sockets.append(try ListeningSocket(address: listener.address))
      } catch {
        throw BindFailure(address: listener.address, error: error)
      }
    }
    // One turn for all listeners: every acceptor runs on the first loop.
    var next = 0
    let contexts = self.contexts
    let pickLoop = {
      defer { next = (next + 1) % contexts.count }
      return contexts[next]
    }
    self.acceptors = AcceptorBox(
      acceptors: zip(sockets, listeners).map {
        Acceptor(
          listener: $0, tls: $1.tls, loop: contexts[0].loop, log: configuration.log,
          pickLoop: pickLoop)
      },
      addresses: sockets.map(\.localAddress))
  }

  /// Binds `address`; see `init(addresses:threads:configuration:services:)`.
  public convenience init(
    address: SocketAddress, threads: Int, configuration: ServerConfiguration,
    services: [any GRPCService], httpResponder: (any HTTPResponder)? = nil
  ) throws {
    try self.init(
      addresses: [address], threads: threads, configuration: configuration, services: services,
      httpResponder: httpResponder)
  }

  /// The bound addresses, in the order given (the real port when asked
  /// for port 0).
  public var localAddresses: [SocketAddress] { acceptors.addresses }

  /// The first bound address.
  public var localAddress: SocketAddress { acceptors.addresses[0] }

  public func start() {
    group.start()
    let acceptors = self.acceptors
    contexts[0].loop.execute {
      for acceptor in acceptors.acceptors {
        do {
          try acceptor.start()
        } catch {
          fatalError("cannot watch the listening socket: \(error)")
        }
      }
    }
  }

  /// Runs `work` every `interval` on the first loop (the one that accepts),
  /// from `start` until the loops stop: for the server's own housekeeping,
  /// which then shares a thread with no lock of its own.
  public func repeatEvery(_ interval: Duration, _ work: @escaping @Sendable () -> Void) {
    let loop = contexts[0].loop
    @Sendable func arm() {
      _ = loop.schedule(after: interval) {
        work()
        arm()
      }
    }
    loop.execute { arm() }
  }

  /// Stops gracefully, returning once done: `onBegin` runs first (the
  /// moment to mark health NOT_SERVING), then the listener closes and every
  /// connection gets a GOAWAY. Calls in flight have `grace` to finish;
  /// those still running then end with UNAVAILABLE. Returns when the last
  /// connection is gone, at most about a second after the grace period.
  public func shutdown(grace: Duration, onBegin: () -> Void = {}) {
    onBegin()
    let acceptors = self.acceptors
    let contexts = self.contexts
    // From the accepting loop, after the listeners are closed, so that every
    // connection they handed out is adopted before its loop starts draining.
    contexts[0].loop.execute {
      for acceptor in acceptors.acceptors { acceptor.stop() }
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
    let acceptors = self.acceptors
    for (index, context) in contexts.enumerated() {
      context.loop.execute {
        if index == 0 { for acceptor in acceptors.acceptors { acceptor.stop() } }
        context.closeAll()
      }
    }
    group.stopAndJoin()
  }
}

/// A listener that could not be bound, named by the address asked for.
public struct BindFailure: Error, CustomStringConvertible {
  public let address: SocketAddress
  public let error: IOError

  public var description: String { "cannot serve on \(address): \(error)" }
}

/// @unchecked Sendable: the acceptors are created before the loops start
/// and afterwards used only on the first loop.
private final class AcceptorBox: @unchecked Sendable {
  let acceptors: [Acceptor]
  let addresses: [SocketAddress]

  init(acceptors: [Acceptor], addresses: [SocketAddress]) {
    self.acceptors = acceptors
    self.addresses = addresses
  }
}
