import GaugeIO
import GaugeTLS

/// One event loop's share of the server: its connections and its read
/// buffer, touched only on that loop.
final class LoopContext: @unchecked Sendable {
  // @unchecked Sendable: other threads only reach it through `loop.execute`,
  // so its mutable state is used on the loop thread alone.
  let loop: EventLoop
  private let group: ConnectionGroup
  private let readBuffer: UnsafeMutableRawBufferPointer
  private let outputScratch = OutputScratch()
  private var connections: [ObjectIdentifier: ConnectionHandler] = [:]
  /// Set while shutting down: runs once the last connection is gone.
  private var whenEmpty: (() -> Void)?
  private var shuttingDown = false
  private var idleSweepScheduled = false
  /// TLS handshakes begun on this loop and not yet over.
  private var handshakesInProgress = 0
  /// Beyond this many handshakes in progress on a loop, new TLS
  /// connections are closed at once: handshakes cost CPU and memory before
  /// the client has shown it can finish one.
  static let maxHandshakesInProgress = 256
  /// Where TLS connections decrypt into; made with the first one.
  private var plaintextBuffer: UnsafeMutableRawBufferPointer?
  /// How often idle connections are looked for; a connection gives its
  /// spare memory back one to two intervals after its last read or write.
  private static let idleSweepInterval = Duration.seconds(1)

  init(
    loop: EventLoop, router: Router, configuration: ServerConfiguration,
    httpResponder: (any HTTPResponder)?, metrics: ServerMetrics?
  ) {
    self.loop = loop
    self.group = ConnectionGroup(
      router: router, configuration: configuration, httpResponder: httpResponder,
      metrics: metrics?.shard(for: loop))
    self.readBuffer = .allocate(byteCount: 64 << 10, alignment: 16)
  }

  deinit {
    readBuffer.deallocate()
    plaintextBuffer?.deallocate()
  }

  var connectionCount: Int { connections.count }

  func adopt(_ socket: ConnectedSocket, tls configuration: ServerTLSConfiguration? = nil) {
    // A connection accepted just before the listener closed.
    guard !shuttingDown else { return socket.close() }
    var tls: ServerTLSLayer?
    if let configuration {
      guard handshakesInProgress < Self.maxHandshakesInProgress,
        let session = try? TLSSession(context: configuration.context, role: .server)
      else { return socket.close() }
      handshakesInProgress += 1
      tls = ServerTLSLayer(
        session: session, plaintextBuffer: tlsPlaintextBuffer(),
        onHandshakeEnded: { [weak self] in self?.handshakesInProgress -= 1 })
    }
    let handler = ConnectionHandler(
      socket: socket, loop: loop, readBuffer: readBuffer, scratch: outputScratch, group: group,
      tls: tls, onClose: { [weak self] handler in self?.closed(handler) })
    do {
      try handler.start()
      connections[ObjectIdentifier(handler)] = handler
      scheduleIdleSweep()
    } catch {
      socket.close()
    }
  }

  private func tlsPlaintextBuffer() -> UnsafeMutableRawBufferPointer {
    if let plaintextBuffer { return plaintextBuffer }
    // A TLS record carries at most 16 KiB of plaintext.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 16)
    plaintextBuffer = buffer
    return buffer
  }

  func closeAll() {
    for handler in Array(connections.values) { handler.close() }
  }

  /// Drains this loop's connections: GOAWAY now; after `grace`, calls still
  /// running end with UNAVAILABLE; a second later whatever is left is
  /// closed. `done` runs on the loop once no connection is left.
  func shutdown(grace: Duration, done: @escaping () -> Void) {
    shuttingDown = true
    whenEmpty = done
    for handler in Array(connections.values) { handler.beginShutdown() }
    loop.schedule(after: grace) { [weak self] in
      guard let self else { return }
      for handler in Array(self.connections.values) { handler.endGracePeriod() }
    }
    loop.schedule(after: grace + .seconds(1)) { [weak self] in self?.closeAll() }
    finishIfEmpty()
  }

  private func scheduleIdleSweep() {
    guard !idleSweepScheduled, !connections.isEmpty, !shuttingDown else { return }
    idleSweepScheduled = true
    loop.schedule(after: Self.idleSweepInterval) { [weak self] in self?.sweepIdleConnections() }
  }

  private func sweepIdleConnections() {
    idleSweepScheduled = false
    var active = false
    var trimmed = false
    for handler in connections.values {
      switch handler.trimIfIdle() {
      case .active: active = true
      case .trimmed: trimmed = true
      case .quiet: break
      }
    }
    // Once per quiet spell of the whole loop: the trim holds each malloc
    // arena's lock while it walks it (milliseconds for a heap of 100 MB),
    // so it waits until no connection of this loop is there to notice.
    if !active {
      group.releaseSpareOutboundBuffers()
      group.blockCache?.release()
    }
    if trimmed, !active { Syscall.releaseFreeHeapPages() }
    scheduleIdleSweep()
  }

  private func closed(_ handler: ConnectionHandler) {
    connections.removeValue(forKey: ObjectIdentifier(handler))
    // No sweep runs without connections: what they left goes back now.
    if connections.isEmpty { group.blockCache?.release() }
    finishIfEmpty()
  }

  private func finishIfEmpty() {
    guard connections.isEmpty, let done = whenEmpty else { return }
    whenEmpty = nil
    done()
  }
}
