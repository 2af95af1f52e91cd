import GRPCClient
import GRPCCore
import GaugeIO
import Synchronization

/// A connection to gauged for Swift services: widgets as async calls, a
/// back-pressured value publisher, and subscriptions that reconnect and
/// resume by themselves.
///
/// One client is meant to be shared: it is `Sendable`, and any number of
/// tasks may call it at once; their calls share one HTTP/2 connection,
/// served by one event loop thread of the client's own (no thread is
/// blocked per call). The connection opens on first use and again after
/// it is lost. Call `close()` when done.
public final class GaugeClient: Sendable {
  /// The server's address, as given.
  public let target: String
  let keeper: ConnectionKeeper
  private let group: EventLoopGroup
  private let state = Mutex(Lifecycle.open)

  private enum Lifecycle {
    case open, closing, closed
  }

  /// Prepares a client for the gauged at `target`: `host:port` (IPv4,
  /// `[IPv6]:port`) or `unix:/path/to/socket`. Nothing is sent until the
  /// first call.
  ///
  /// - Parameters:
  ///   - tls: `.system` or `.ca(path:)` for a gauged serving TLS (a TCP
  ///     target only: gauged's Unix sockets are cleartext).
  ///   - token: sent with every call as `authorization: Bearer TOKEN`.
  /// - Throws: `invalidArgument` for an address that cannot be read, TLS
  ///   over a Unix socket, or a CA file that cannot be read; `internal`
  ///   when the loop cannot start.
  public init(target: String, tls: TransportSecurity = .none, token: String? = nil)
    throws(GaugeError)
  {
    let address: SocketAddress
    do {
      address = try SocketAddress(parsing: target)
    } catch {
      throw GaugeError(code: .invalidArgument, message: "\(error)")
    }
    var configuration = ClientConfiguration()
    if tls != .none {
      guard address.unixPath == nil else {
        throw GaugeError(
          code: .invalidArgument,
          message: "TLS over a Unix socket: gauged serves its Unix sockets in cleartext")
      }
      let caFile: String? =
        switch tls {
        case .ca(let path): path
        case .none, .system: nil
        }
      do {
        configuration.tls = try ClientTLS(target: target, caFile: caFile)
      } catch {
        throw GaugeError(code: .invalidArgument, message: "\(error)")
      }
    }
    var metadata = Metadata()
    if let token { metadata.add("authorization", "Bearer \(token)") }
    do {
      group = try EventLoopGroup(threads: 1)
    } catch {
      throw GaugeError(code: .internal, message: "cannot start the client's loop: \(error)")
    }
    self.target = target
    configuration.userAgent = "gauge-swift-client/0.1"
    keeper = ConnectionKeeper(
      loop: group.loops[0], address: address, metadata: metadata, configuration: configuration)
    group.start()
  }

  deinit {
    let keeper = self.keeper
    keeper.loop.execute { keeper.closeChannel() }
    group.stopAndJoin()
  }

  /// Throws `unavailable` once `close()` has begun.
  func checkOpen() throws(GaugeError) {
    let isOpen = state.withLock { $0 == .open }
    guard isOpen else { throw .closed }
  }

  /// Calls open on the connection now.
  func activeCallCount() async -> Int {
    let keeper = self.keeper
    return await withCheckedContinuation { continuation in
      keeper.loop.execute { continuation.resume(returning: keeper.activeCallCount) }
    }
  }

  /// Ends the client gracefully: new calls fail at once, subscriptions
  /// end (their loops see the end of the sequence), the server is told
  /// no more calls come, and the calls and publishers already running are
  /// given up to `grace` to finish before the connection closes.
  /// Idempotent.
  public func close(grace: Duration = .seconds(5)) async {
    let first = state.withLock { state in
      defer { if state == .open { state = .closing } }
      return state == .open
    }
    guard first else { return }
    let keeper = self.keeper
    keeper.loop.execute { keeper.beginClosing() }
    let clock = ContinuousClock()
    let deadline = clock.now + grace
    while clock.now < deadline {
      if await activeCallCount() == 0 { break }
      try? await Task.sleep(for: .milliseconds(10))
    }
    await withCheckedContinuation { continuation in
      keeper.loop.execute {
        keeper.closeChannel()
        continuation.resume()
      }
    }
    state.withLock { $0 = .closed }
  }
}
