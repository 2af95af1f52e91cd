import GRPCCore
import GaugeIO

/// One TCP connection to a gRPC server on an event loop: moves bytes
/// between the socket and its `GRPCClientConnection`, writing the output of
/// every call once per loop turn. Use it on its loop's thread only; the
/// loop keeps it alive while it is open.
public final class GRPCChannel: EventLoopHandler {
  public let address: SocketAddress
  public let connection: GRPCClientConnection
  public private(set) var isClosed = false
  /// Called once, on the loop, when the connection ends, with the status
  /// its live calls finished with.
  public var onClose: ((GRPCStatus) -> Void)?
  /// Called on the loop before each chunk read from the socket goes to the
  /// connection: what it holds arrived together, so a reader that times
  /// arrivals can read its clock once per chunk rather than per message.
  public var onRead: (() -> Void)?

  private let socket: ConnectedSocket
  private let loop: EventLoop
  private let readBuffer: UnsafeMutableRawBufferPointer
  /// What the connection's output callback and the flush hold (see
  /// `BackReference`).
  private let back: BackReference<GRPCChannel>
  private var output = SocketOutput()
  private var flushScheduled = false
  private var wantsWritable = false
  private var closeAfterFlush = false

  /// Reads per readiness event before yielding to other descriptors.
  private static let readsPerEvent = 4

  /// Connects to `address`, waiting for the TCP handshake on the calling
  /// thread (at most `connectTimeout`), then serves the connection on
  /// `loop`. Call it on the loop's thread, or before the loop runs.
  public static func connect(
    to address: SocketAddress, on loop: EventLoop,
    configuration: ClientConfiguration = ClientConfiguration(), connectTimeout: Duration? = nil
  ) throws(IOError) -> GRPCChannel {
    let socket = try ConnectedSocket.connect(to: address, timeout: connectTimeout)
    let channel = GRPCChannel(
      socket: socket, address: address, loop: loop, configuration: configuration)
    do throws(IOError) {
      try loop.register(fd: socket.fd, interest: .readable, handler: channel)
    } catch {
      socket.close()
      throw error
    }
    channel.scheduleFlush()
    return channel
  }

  private init(
    socket: ConnectedSocket, address: SocketAddress, loop: EventLoop,
    configuration: ClientConfiguration
  ) {
    self.socket = socket
    self.address = address
    self.loop = loop
    self.readBuffer = .allocate(byteCount: 64 << 10, alignment: 16)
    // The connection's output callback needs `self`, which exists only once
    // every stored property is set; a box closes the loop.
    let back = BackReference<GRPCChannel>()
    self.back = back
    self.connection = GRPCClientConnection(
      authority: address.authority, configuration: configuration,
      scheduler: LoopScheduler(loop: loop), outputReady: { back.target?.scheduleFlush() })
    back.target = self
  }

  deinit {
    back.target = nil
    readBuffer.deallocate()
  }

  /// Starts a call; see `GRPCClientConnection.makeCall`.
  public func makeCall(
    path: String, callProtocol: CallProtocol = .grpc, metadata: Metadata = Metadata(),
    timeout: Duration? = nil, handler: any ClientCallHandler
  ) -> ClientCall {
    connection.makeCall(
      path: path, callProtocol: callProtocol, metadata: metadata, timeout: timeout,
      handler: handler)
  }

  public func readable() {
    read(upTo: Self.readsPerEvent)
  }

  private func read(upTo reads: Int) {
    for _ in 0..<reads {
      guard !isClosed, !closeAfterFlush else { return }
      let result: IOResult<Int>
      do {
        result = try socket.read(into: readBuffer)
      } catch {
        close(GRPCStatus(.unavailable, "connection to \(address) failed: \(error)"))
        return
      }
      switch result {
      case .wouldBlock:
        return
      case .processed(0):
        close(GRPCStatus(.unavailable, "the server at \(address) closed the connection"))
        return
      case .processed(let count):
        onRead?()
        if !connection.receive(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])) {
          closeAfterFlush = true
        }
        scheduleFlush()
        if count < readBuffer.count { return }
      }
    }
  }

  public func writable() {
    flush()
  }

  public func hangup() {
    // What the server sent before leaving may end a call: read it all.
    read(upTo: .max)
    close(GRPCStatus(.unavailable, "the server at \(address) closed the connection"))
  }

  /// Closes the socket now; live calls finish with `status`.
  public func close(_ status: GRPCStatus = GRPCStatus(.unavailable, "the channel was closed")) {
    guard !isClosed else { return }
    isClosed = true
    loop.deregister(fd: socket.fd)
    socket.close()
    connection.connectionLost(status)
    let onClose = self.onClose
    self.onClose = nil
    onClose?(status)
  }

  private func scheduleFlush() {
    guard !flushScheduled, !isClosed else { return }
    flushScheduled = true
    loop.afterTurn { [back] in back.target?.flush() }
  }

  private func flush() {
    flushScheduled = false
    guard !isClosed else { return }
    if !output.refill({ connection.drainOutput(into: &$0) }) { closeAfterFlush = true }
    // Draining can end a call (nghttp2 closes a stream as it writes its
    // RST_STREAM), and the call's handler may close this channel.
    guard !isClosed else { return }
    do {
      guard try output.write(to: socket).drained else {
        setWritable(true)
        return
      }
    } catch {
      close(GRPCStatus(.unavailable, "connection to \(address) failed: \(error)"))
      return
    }
    setWritable(false)
    if closeAfterFlush {
      close(GRPCStatus(.unavailable, "HTTP/2 protocol error on the connection to \(address)"))
    } else if !connection.isAlive {
      close(GRPCStatus(.unavailable, "the connection to \(address) was shut down"))
    }
  }

  private func setWritable(_ writable: Bool) {
    guard writable != wantsWritable else { return }
    wantsWritable = writable
    try? loop.setInterest(fd: socket.fd, writable ? [.readable, .writable] : .readable)
  }
}
