import GRPCClient
import GRPCCore
import GaugeIO

/// The client's one connection, on its event loop: opened on first use,
/// opened again after it is lost, shut by `GaugeClient.close()`. Every
/// member is used on the loop thread only.
// @unchecked Sendable: callers carry it into `loop.execute` closures and
// touch it nowhere else.
final class ConnectionKeeper: @unchecked Sendable {
  let loop: EventLoop
  let address: SocketAddress
  let metadata: Metadata
  private let configuration: ClientConfiguration
  private var channel: GRPCChannel?
  /// Subscriptions to end when the client closes.
  private var subscriptions: [ObjectIdentifier: SubscriptionDriver] = [:]
  private(set) var isClosing = false

  /// How long opening a TCP connection may hold the loop.
  static let connectTimeout = Duration.seconds(5)

  init(
    loop: EventLoop, address: SocketAddress, metadata: Metadata,
    configuration: ClientConfiguration
  ) {
    self.loop = loop
    self.address = address
    self.metadata = metadata
    self.configuration = configuration
  }

  /// The live channel, connecting first when there is none. The TCP
  /// handshake runs on the loop thread (immediate on loopback and Unix
  /// sockets, at most `connectTimeout` or the call's `timeout` elsewhere).
  /// A channel the server is shutting down (GOAWAY) is left to finish the
  /// calls it carries; it closes itself after them.
  func openChannel(timeout: Duration? = nil) -> Result<GRPCChannel, GaugeError> {
    guard !isClosing else { return .failure(.closed) }
    if let channel, !channel.isClosed, channel.connection.isAlive { return .success(channel) }
    do {
      let opened = try GRPCChannel.connect(
        to: address, on: loop, configuration: configuration,
        connectTimeout: min(timeout ?? Self.connectTimeout, Self.connectTimeout))
      let identity = ObjectIdentifier(opened)
      opened.onClose = { [weak self] _ in
        if let current = self?.channel, ObjectIdentifier(current) == identity {
          self?.channel = nil
        }
      }
      channel = opened
      return .success(opened)
    } catch {
      return .failure(
        GaugeError(code: .unavailable, message: "cannot connect to \(address): \(error)"))
    }
  }

  /// Starts a call on the live channel; the handler finishes with the
  /// failure when there is none.
  func makeCall(
    path: String, timeout: Duration?, handler: any ClientCallHandler
  ) -> Result<ClientCall, GaugeError> {
    openChannel(timeout: timeout).map { channel in
      channel.makeCall(path: path, metadata: metadata, timeout: timeout, handler: handler)
    }
  }

  func track(_ subscription: SubscriptionDriver) {
    subscriptions[ObjectIdentifier(subscription)] = subscription
  }

  func forget(_ subscription: SubscriptionDriver) {
    subscriptions[ObjectIdentifier(subscription)] = nil
  }

  /// No new calls; subscriptions end; the server is told (GOAWAY) while
  /// unary calls and publishers in flight finish.
  func beginClosing() {
    isClosing = true
    for subscription in subscriptions.values { subscription.end() }
    subscriptions.removeAll()
    channel?.connection.shutdown()
  }

  /// Calls still running on the connection.
  var activeCallCount: Int {
    guard let channel, !channel.isClosed else { return 0 }
    return channel.connection.activeCallCount
  }

  /// Closes the socket; calls still running end with UNAVAILABLE.
  func closeChannel() {
    channel?.close(GRPCStatus(.unavailable, "the client was closed"))
    channel = nil
  }
}
