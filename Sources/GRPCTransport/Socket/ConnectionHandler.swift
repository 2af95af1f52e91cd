import GaugeIO

/// Moves bytes between one TCP socket and its `GRPCServerConnection`, on
/// the loop that owns both. Output of every stream is gathered and written
/// once per loop turn.
final class ConnectionHandler: EventLoopHandler {
  private let socket: ConnectedSocket
  private let loop: EventLoop
  private let readBuffer: UnsafeMutableRawBufferPointer
  private let scratch: OutputScratch
  private var connection: GRPCServerConnection!
  private var output = SocketOutput()
  private var flushScheduled = false
  private var wantsWritable = false
  private var closeAfterFlush = false
  private(set) var isClosed = false
  /// Read or wrote since the last idle sweep (see `trimIfIdle`).
  private var activeSinceSweep = true
  private var trimmed = false
  private let onClose: (ConnectionHandler) -> Void
  /// What the connection's output callback and the flush hold.
  private let back = BackReference<ConnectionHandler>()

  private var readBudget = ReadBudget()
  /// Output the socket has not taken yet beyond which nothing more is
  /// taken from the session: a peer that does not read leaves its backlog
  /// in the session and on its streams, where it is bounded and counted.
  private static let outputHighWater = 256 << 10

  init(
    socket: ConnectedSocket, loop: EventLoop, readBuffer: UnsafeMutableRawBufferPointer,
    scratch: OutputScratch, group: ConnectionGroup,
    onClose: @escaping (ConnectionHandler) -> Void
  ) {
    self.socket = socket
    self.loop = loop
    self.readBuffer = readBuffer
    self.scratch = scratch
    self.onClose = onClose
    self.connection = GRPCServerConnection(
      group: group, scheduler: LoopScheduler(loop: loop),
      outputReady: { [back] in back.target?.scheduleFlush() })
    back.target = self
  }

  deinit {
    back.target = nil
  }

  func start() throws(IOError) {
    try loop.register(fd: socket.fd, interest: .readable, handler: self)
    // The server's SETTINGS go out first.
    scheduleFlush()
  }

  func readable() {
    readBudget.eventBegins()
    while true {
      guard !isClosed, !closeAfterFlush else { return }
      let asked = readBudget.nextReadBytes(bufferBytes: readBuffer.count)
      let result: IOResult<Int>
      do {
        result = try socket.read(
          into: UnsafeMutableRawBufferPointer(rebasing: readBuffer[0..<asked]))
      } catch {
        close()
        return
      }
      switch result {
      case .wouldBlock:
        return
      case .processed(0):
        // The peer will send nothing more; whatever it is owed still goes out.
        closeAfterFlush = true
        scheduleFlush()
        return
      case .processed(let count):
        noteActivity()
        if !connection.receive(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])) {
          // Beyond saving: the GOAWAY goes out if the socket takes it now,
          // and a peer that flooded us is not waited for.
          flush()
          close()
          return
        }
        scheduleFlush()
        let again = readBudget.read(count, asked: asked, othersWaiting: loop.hasQueuedTasks)
        connection.limitInboundBacklog(readBudget.limitsBacklog)
        guard again else { return }
      }
    }
  }

  func writable() {
    flush()
  }

  /// The peer closed or reset: whatever it is still owed is written if the
  /// socket takes it, then the connection ends.
  func hangup() {
    flush()
    close()
  }

  private func scheduleFlush() {
    guard !flushScheduled, !isClosed else { return }
    flushScheduled = true
    loop.afterTurn { [back] in back.target?.flush() }
  }

  private func flush() {
    flushScheduled = false
    guard !isClosed else { return }
    if connection.abandoned {
      close()
      return
    }
    var written = 0
    while true {
      let result: (written: Int, drained: Bool)
      do {
        if output.pending == 0 {
          // The common case: the frames go out from the loop's buffer, and
          // only what the socket leaves is kept by this connection.
          scratch.bytes.removeAll(keepingCapacity: true)
          if !connection.drainOutput(into: &scratch.bytes, limit: Self.outputHighWater) {
            closeAfterFlush = true
          }
          guard !scratch.bytes.isEmpty else { break }
          result = try output.write(scratch.bytes, to: socket)
        } else {
          if output.pending < Self.outputHighWater,
            !output.refill({ connection.drainOutput(into: &$0, limit: Self.outputHighWater) })
          {
            closeAfterFlush = true
          }
          result = try output.write(to: socket)
        }
      } catch {
        close()
        return
      }
      written += result.written
      noteActivity()
      if !result.drained {
        setWritable(true)
        connection.socketFlushed(bytesWritten: written, backlog: output.pending)
        return
      }
    }
    setWritable(false)
    connection.socketFlushed(bytesWritten: written, backlog: 0)
    if closeAfterFlush || !connection.isAlive { close() }
  }

  private func noteActivity() {
    activeSinceSweep = true
    trimmed = false
  }

  /// Called by the loop's idle sweep: a connection that neither read nor
  /// wrote since the sweep before gives back the memory it only needs while
  /// busy, once per idle spell. Waiting a sweep keeps a busy connection from
  /// paying a page fault per call.
  func trimIfIdle() -> IdleSweepOutcome {
    guard !isClosed else { return .quiet }
    guard !activeSinceSweep else {
      activeSinceSweep = false
      return .active
    }
    guard !trimmed, output.pending == 0, connection.trimIdleMemory() else { return .quiet }
    output.releaseBuffer()
    trimmed = true
    return .trimmed
  }

  /// The server is stopping: the peer is told to open no more streams.
  func beginShutdown() {
    guard !isClosed else { return }
    connection.beginShutdown()
  }

  /// Calls still running end with UNAVAILABLE.
  func endGracePeriod() {
    guard !isClosed else { return }
    connection.endGracePeriod()
  }

  private func setWritable(_ writable: Bool) {
    guard writable != wantsWritable else { return }
    wantsWritable = writable
    try? loop.setInterest(fd: socket.fd, writable ? [.readable, .writable] : .readable)
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    loop.deregister(fd: socket.fd)
    socket.close()
    connection.connectionLost()
    onClose(self)
  }
}

/// What an idle sweep found a connection doing.
enum IdleSweepOutcome {
  /// It read or wrote since the sweep before.
  case active
  /// Idle for a whole interval: it gave back its spare memory just now.
  case trimmed
  /// Idle, with nothing (more) to give back.
  case quiet
}
