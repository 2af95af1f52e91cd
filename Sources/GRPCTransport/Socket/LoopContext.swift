import GaugeIO

/// One event loop's share of the server: its connections and its read
/// buffer, touched only on that loop.
final class LoopContext: @unchecked Sendable {
  // @unchecked Sendable: other threads only reach it through `loop.execute`,
  // so its mutable state is used on the loop thread alone.
  let loop: EventLoop
  private let router: Router
  private let configuration: ServerConfiguration
  private let readBuffer: UnsafeMutableRawBufferPointer
  private var connections: [ObjectIdentifier: ConnectionHandler] = [:]

  init(loop: EventLoop, router: Router, configuration: ServerConfiguration) {
    self.loop = loop
    self.router = router
    self.configuration = configuration
    self.readBuffer = .allocate(byteCount: 64 << 10, alignment: 16)
  }

  deinit {
    readBuffer.deallocate()
  }

  var connectionCount: Int { connections.count }

  func adopt(_ socket: ConnectedSocket) {
    let handler = ConnectionHandler(
      socket: socket, loop: loop, readBuffer: readBuffer, router: router,
      configuration: configuration,
      onClose: { [weak self] handler in
        self?.connections.removeValue(forKey: ObjectIdentifier(handler))
      })
    do {
      try handler.start()
      connections[ObjectIdentifier(handler)] = handler
    } catch {
      socket.close()
    }
  }

  func closeAll() {
    for handler in Array(connections.values) { handler.close() }
  }
}
