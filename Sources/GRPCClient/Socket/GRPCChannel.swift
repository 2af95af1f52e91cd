import GRPCCore
import GaugeIO
import GaugeTLS
import Glibc

/// One TCP connection to a gRPC server on an event loop: moves bytes
/// between the socket and its `GRPCClientConnection`, writing the output of
/// every call once per loop turn. With `ClientConfiguration.tls`, a
/// `TLSSession` sits between them: the connection's output waits for the
/// handshake, which runs on the loop. Use it on its loop's thread only; the
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
  /// TLS, when configured, and the buffers it decrypts and encrypts through.
  private let tls: TLSSession?
  private let plaintextIn: UnsafeMutableRawBufferPointer?
  private var plaintextOut: [UInt8] = []

  /// Reads per readiness event before yielding to other descriptors.
  private static let readsPerEvent = 4

  /// Connects to `address`, waiting for the TCP handshake on the calling
  /// thread (at most `connectTimeout`), then serves the connection on
  /// `loop`. Call it on the loop's thread, or before the loop runs.
  public static func connect(
    to address: SocketAddress, on loop: EventLoop,
    configuration: ClientConfiguration = ClientConfiguration(), connectTimeout: Duration? = nil
  ) throws(IOError) -> GRPCChannel {
    var session: TLSSession?
    if let tls = configuration.tls {
      do {
        session = try TLSSession(context: tls.context, role: .client(serverName: tls.serverName))
      } catch {
        throw IOError(call: "TLS", errno: EPROTO)
      }
    }
    let socket = try ConnectedSocket.connect(to: address, timeout: connectTimeout)
    let channel = GRPCChannel(
      socket: socket, address: address, loop: loop, configuration: configuration, tls: session)
    do throws(IOError) {
      try loop.register(fd: socket.fd, interest: .readable, handler: channel)
    } catch {
      socket.close()
      throw error
    }
    // The ClientHello goes out with the first flush.
    channel.advanceTLS()
    channel.scheduleFlush()
    return channel
  }

  private init(
    socket: ConnectedSocket, address: SocketAddress, loop: EventLoop,
    configuration: ClientConfiguration, tls: TLSSession?
  ) {
    self.tls = tls
    // A TLS record carries at most 16 KiB of plaintext.
    self.plaintextIn = tls == nil ? nil : .allocate(byteCount: 16 << 10, alignment: 16)
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
    plaintextIn?.deallocate()
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
        let input = UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])
        if let tls {
          tls.receive(input)
          advanceTLS()
        } else if !connection.receive(input) {
          closeAfterFlush = true
        }
        scheduleFlush()
        if count < readBuffer.count { return }
      }
    }
  }

  /// Runs the received ciphertext through the session: handshake steps,
  /// then plaintext for the connection.
  private func advanceTLS() {
    guard let tls, let plaintextIn else { return }
    while !isClosed, !closeAfterFlush {
      switch tls.next(plaintextInto: plaintextIn) {
      case .needsInput:
        return
      case .handshakeCompleted:
        if let chosen = tls.negotiatedProtocol, chosen != "h2" {
          return close(
            GRPCStatus(.unavailable, "the server at \(address) chose \(chosen), not HTTP/2"))
        }
      case .plaintext(let count):
        if !connection.receive(UnsafeRawBufferPointer(rebasing: plaintextIn[0..<count])) {
          closeAfterFlush = true
        }
      case .peerClosed:
        return close(GRPCStatus(.unavailable, "the server at \(address) closed the connection"))
      case .failed(let failure):
        return close(GRPCStatus(.unavailable, "TLS with \(address): \(failure)"))
      }
    }
  }

  /// The connection's output as it goes on the wire: as it is, or
  /// encrypted once the handshake is done (before, only its messages).
  private func drainOutgoing(into buffer: inout [UInt8]) -> Bool {
    guard let tls else { return connection.drainOutput(into: &buffer) }
    var alive = true
    if tls.isEstablished {
      plaintextOut.removeAll(keepingCapacity: true)
      alive = connection.drainOutput(into: &plaintextOut)
      if !plaintextOut.isEmpty, !plaintextOut.withUnsafeBytes({ tls.send($0) }) { alive = false }
    }
    tls.takeCiphertext(into: &buffer)
    return alive
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
    if !output.refill({ drainOutgoing(into: &$0) }) { closeAfterFlush = true }
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
