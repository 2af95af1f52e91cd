import GRPCCore
import GaugeIO
import GaugeLog
import GaugeTLS

/// Moves bytes between one socket and the session that speaks its
/// protocol, on the loop that owns both: the first bytes decide between
/// HTTP/2 (the client preface) and HTTP/1.1 (anything else). Output is
/// gathered and written once per loop turn. On a TLS listener a
/// `TLSSession` sits between the socket and the session: ALPN decides, or
/// the first decrypted bytes do when the client offered none.
final class ConnectionHandler: EventLoopHandler {
  /// The protocol session behind the socket.
  private enum Session {
    /// Every byte so far agrees with the HTTP/2 client preface.
    case detecting([UInt8])
    case http2(GRPCServerConnection)
    case http1(HTTP1ServerConnection)
  }

  private let socket: ConnectedSocket
  private let loop: EventLoop
  private let readBuffer: UnsafeMutableRawBufferPointer
  private let scratch: OutputScratch
  private let group: ConnectionGroup
  private var session = Session.detecting([])
  private var output = SocketOutput()
  private var flushScheduled = false
  private var interest = Interest.readable
  private var closeAfterFlush = false
  private(set) var isClosed = false
  /// Read or wrote since the last idle sweep (see `trimIfIdle`).
  private var activeSinceSweep = true
  private var trimmed = false
  private let onClose: (ConnectionHandler) -> Void
  /// TLS, on a TLS listener; nil leaves the cleartext path as it was.
  private let tls: ServerTLSLayer?
  /// The protocol this connection counts under in `gauged_connections`,
  /// once detected.
  private var countedAs: String?
  /// What the sessions' output callbacks, the flush and timers hold.
  private let back = BackReference<ConnectionHandler>()
  private var detectionTimer: TimerHandle?
  /// The peer sent its FIN: nothing more will come from it.
  private var peerEnded = false
  /// Set once everything is written and the sending side is shut (see
  /// `endGracefully`); it closes the socket if the peer never does.
  private var lingerTimer: TimerHandle?
  private static let lingerLimit = Duration.seconds(2)

  private var readBudget = ReadBudget()
  /// Output the socket has not taken yet beyond which nothing more is
  /// taken from the session: a peer that does not read leaves its backlog
  /// in the session and on its streams, where it is bounded and counted.
  private static let outputHighWater = 256 << 10

  init(
    socket: ConnectedSocket, loop: EventLoop, readBuffer: UnsafeMutableRawBufferPointer,
    scratch: OutputScratch, group: ConnectionGroup, tls: ServerTLSLayer? = nil,
    onClose: @escaping (ConnectionHandler) -> Void
  ) {
    self.tls = tls
    self.socket = socket
    self.loop = loop
    self.readBuffer = readBuffer
    self.scratch = scratch
    self.group = group
    self.onClose = onClose
    back.target = self
  }

  deinit {
    back.target = nil
  }

  func start() throws(IOError) {
    try loop.register(fd: socket.fd, interest: .readable, handler: self)
    // A peer that says nothing, or never gets past the preface (or the TLS
    // handshake), is not waited for beyond the time an HTTP/1.1 head may
    // take (or a handshake).
    let limit = tls == nil ? group.http1Configuration.headTimeout : ServerTLSLayer.handshakeTimeout
    detectionTimer = loop.schedule(after: limit) { [back] in
      back.target?.detectionTimedOut()
    }
  }

  private func detectionTimedOut() {
    detectionTimer = nil
    if case .detecting = session { close() }
  }

  /// Ends detection: the session for `verdict` takes the bytes read so far.
  private func begin(_ verdict: ProtocolDetection.Verdict, with bytes: [UInt8]) -> Bool {
    if let detectionTimer { loop.cancel(detectionTimer) }
    detectionTimer = nil
    switch verdict {
    case .undecided:
      session = .detecting(bytes)
      return true
    case .http2:
      let connection = GRPCServerConnection(
        group: group, scheduler: LoopScheduler(loop: loop),
        outputReady: { [back] in back.target?.scheduleFlush() })
      session = .http2(connection)
      countOpened("h2")
      connection.peer = peerForLog()
      return bytes.withUnsafeBytes { connection.receive($0) }
    case .http1:
      let connection = HTTP1ServerConnection(
        responder: group.httpResponder, configuration: group.http1Configuration,
        scheduler: LoopScheduler(loop: loop),
        outputReady: { [back] in back.target?.scheduleFlush() })
      connection.inputResumed = { [back] in back.target?.resumeReading() }
      connection.metrics = group.metrics
      connection.peer = peerForLog()
      session = .http1(connection)
      countOpened("http1")
      bytes.withUnsafeBytes { _ = connection.receive($0) }
      if !connection.wantsInput { setInterest(reading: false) }
      return true
    }
  }

  /// Hands bytes to the session. False when the connection is beyond saving.
  private func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
    switch session {
    case .http2(let connection):
      return connection.receive(bytes)
    case .http1(let connection):
      connection.receive(bytes)
      if !connection.wantsInput { setInterest(reading: false) }
      return true
    case .detecting(var buffered):
      buffered += bytes
      return begin(ProtocolDetection.verdict(buffered), with: buffered)
    }
  }

  /// The peer will send nothing more; whatever it is owed still goes out
  /// (HTTP/1.1 answers may still be on their way from the store).
  private func peerFinished() {
    peerEnded = true
    if case .http1(let connection) = session {
      connection.inputEnded()
      setInterest(reading: false)
    } else {
      closeAfterFlush = true
    }
    scheduleFlush()
  }

  /// Ciphertext from the socket: the handshake, then plaintext for the
  /// session. False when the connection is beyond saving.
  private func decrypt(_ ciphertext: UnsafeRawBufferPointer) -> Bool {
    guard let tls else { return deliver(ciphertext) }
    if tls.refusesPlaintext(ciphertext) {
      // A human's curl http:// (or any cleartext HTTP): told in its own
      // terms, where a TLS alert would only print garbage.
      _ = try? ServerTLSLayer.plaintextRefusal.withUnsafeBytes { try socket.write($0) }
      tls.handshakeEnded()
      closeAfterFlush = true
      endGracefully()
      return true
    }
    tls.session.receive(ciphertext)
    tls.deliveredPlaintext = false
    while true {
      switch tls.session.next(plaintextInto: tls.plaintextBuffer) {
      case .needsInput:
        return true
      case .handshakeCompleted:
        tls.handshakeEnded()
        let chosen: Bool
        switch tls.session.negotiatedProtocol {
        case "h2": chosen = begin(.http2, with: [])
        case "http/1.1": chosen = begin(.http1, with: [])
        default: chosen = true  // No ALPN: the first decrypted bytes tell.
        }
        guard chosen else { return false }
      case .plaintext(let count):
        tls.deliveredPlaintext = true
        guard deliver(UnsafeRawBufferPointer(rebasing: tls.plaintextBuffer[0..<count])) else {
          return false
        }
      case .peerClosed:
        peerFinished()
        return true
      case .failed(let failure):
        // The alert, if OpenSSL wrote one, goes out before the close.
        tls.handshakeEnded()
        closeAfterFlush = true
        logTLSFailure(failure)
        return true
      }
    }
  }

  /// A refused connection, as floods and stalls are logged: which peer
  /// failed, and OpenSSL's reason (a client without a certificate under
  /// --tls-client-ca, an untrusted one, garbage, cleartext).
  private func logTLSFailure(_ failure: TLSFailure) {
    let log = group.configuration.log
    guard log.enabled(.warn) else { return }
    let peer = (try? Syscall.getpeername(fd: socket.fd))?.description ?? "?"
    log.warn(
      "tls_failed", "TLS with \(peer) failed: \(failure)",
      [LogField("peer", peer), LogField("error", failure.description)])
  }

  private func resumeReading() {
    guard !isClosed, case .http1(let connection) = session, connection.wantsInput else { return }
    setInterest(reading: true)
  }

  func readable() {
    if lingerTimer != nil { return discardLateInput() }
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
        peerFinished()
        return
      case .processed(let count):
        noteActivity()
        let input = UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])
        if !(tls == nil ? deliver(input) : decrypt(input)) {
          // Beyond saving: the GOAWAY goes out if the socket takes it now,
          // and a peer that flooded us is not waited for.
          flush()
          close()
          return
        }
        scheduleFlush()
        // A TLS read that only added to a record proves nothing about the
        // loop: while yielding, it goes on yielding.
        let waiting =
          loop.hasQueuedTasks || (readBudget.yielding && tls?.deliveredPlaintext == false)
        let again = readBudget.read(count, asked: asked, othersWaiting: waiting)
        if case .http2(let connection) = session {
          connection.limitInboundBacklog(readBudget.limitsBacklog)
        }
        guard again, interest.contains(.readable) else { return }
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
    guard !isClosed, lingerTimer == nil else { return }
    if sessionAbandoned {
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
          if !drainOutgoing(into: &scratch.bytes, limit: Self.outputHighWater) {
            closeAfterFlush = true
          }
          guard !scratch.bytes.isEmpty else { break }
          result = try output.write(scratch.bytes, to: socket)
        } else {
          if output.pending < Self.outputHighWater,
            !output.refill({ drainOutgoing(into: &$0, limit: Self.outputHighWater) })
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
        sessionFlushed(bytesWritten: written, backlog: output.pending)
        return
      }
    }
    setWritable(false)
    sessionFlushed(bytesWritten: written, backlog: 0)
    if closeAfterFlush || !sessionIsAlive { endGracefully() }
  }

  /// Everything owed is written. Closing now while the peer's late bytes
  /// (a PING after its GOAWAY, the rest of a refused upload) sit unread
  /// would make the kernel answer with a reset, which can destroy the last
  /// response before the peer reads it. So the sending side is shut, and
  /// what still arrives is read and dropped until the peer closes too, for
  /// `lingerLimit` at most.
  private func endGracefully() {
    guard !peerEnded else { return close() }
    guard lingerTimer == nil else { return }
    socket.shutdownWrite()
    setWritable(false)
    setInterest(reading: true)
    lingerTimer = loop.schedule(after: Self.lingerLimit) { [back] in
      back.target?.lingerTimer = nil
      back.target?.close()
    }
  }

  private func discardLateInput() {
    // Bounded per readiness event, so a peer that keeps sending cannot hold
    // the loop; the descriptor stays readable and comes back next turn.
    for _ in 0..<4 {
      let result: IOResult<Int>
      do {
        result = try socket.read(into: readBuffer)
      } catch {
        return close()
      }
      switch result {
      case .wouldBlock: return
      case .processed(0): return close()
      case .processed: continue
      }
    }
  }

  // MARK: The session, whichever it is

  private var sessionAbandoned: Bool {
    if case .http2(let connection) = session { return connection.abandoned }
    return false
  }

  /// The session's output as it goes on the wire: as it is, or encrypted.
  private func drainOutgoing(into buffer: inout [UInt8], limit: Int) -> Bool {
    guard let tls else { return drainSession(into: &buffer, limit: limit) }
    var plaintext = scratch.plaintext
    scratch.plaintext = []
    plaintext.removeAll(keepingCapacity: true)
    var alive = drainSession(into: &plaintext, limit: limit)
    if !plaintext.isEmpty, !plaintext.withUnsafeBytes({ tls.session.send($0) }) {
      alive = false
    }
    scratch.plaintext = plaintext
    // The last bytes are followed by close_notify, so the peer can tell an
    // end from a cut.
    if !alive || closeAfterFlush || !sessionIsAlive { tls.session.close() }
    tls.session.takeCiphertext(into: &buffer)
    return alive
  }

  private func drainSession(into buffer: inout [UInt8], limit: Int) -> Bool {
    switch session {
    case .http2(let connection): connection.drainOutput(into: &buffer, limit: limit)
    case .http1(let connection): connection.drainOutput(into: &buffer, limit: limit)
    case .detecting: true
    }
  }

  private func sessionFlushed(bytesWritten: Int, backlog: Int) {
    switch session {
    case .http2(let connection):
      connection.socketFlushed(bytesWritten: bytesWritten, backlog: backlog)
    case .http1(let connection):
      connection.socketFlushed(bytesWritten: bytesWritten, backlog: backlog)
    case .detecting: break
    }
  }

  private var sessionIsAlive: Bool {
    switch session {
    case .http2(let connection): connection.isAlive
    case .http1(let connection): connection.isAlive
    case .detecting: true
    }
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
    let trimmedSession =
      switch session {
      case .http2(let connection): connection.trimIdleMemory()
      case .http1(let connection): connection.trimIdleMemory()
      case .detecting: false
      }
    guard !trimmed, output.pending == 0, trimmedSession else { return .quiet }
    output.releaseBuffer()
    trimmed = true
    return .trimmed
  }

  /// The server is stopping: the peer is told to open no more streams.
  func beginShutdown() {
    guard !isClosed, lingerTimer == nil else { return }
    switch session {
    case .http2(let connection): connection.beginShutdown()
    case .http1(let connection): connection.beginShutdown()
    case .detecting: close()
    }
  }

  /// Calls still running end with UNAVAILABLE.
  func endGracePeriod() {
    guard !isClosed else { return }
    if lingerTimer != nil { return close() }
    switch session {
    case .http2(let connection): connection.endGracePeriod()
    case .http1(let connection): connection.endGracePeriod()
    case .detecting: close()
    }
  }

  private func setWritable(_ writable: Bool) {
    var wanted = interest
    if writable { wanted.insert(.writable) } else { wanted.remove(.writable) }
    updateInterest(wanted)
  }

  private func setInterest(reading: Bool) {
    var wanted = interest
    if reading { wanted.insert(.readable) } else { wanted.remove(.readable) }
    updateInterest(wanted)
  }

  private func updateInterest(_ wanted: Interest) {
    guard wanted != interest, !isClosed else { return }
    interest = wanted
    try? loop.setInterest(fd: socket.fd, wanted)
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    loop.deregister(fd: socket.fd)
    socket.close()
    if let detectionTimer { loop.cancel(detectionTimer) }
    detectionTimer = nil
    if let lingerTimer { loop.cancel(lingerTimer) }
    lingerTimer = nil
    tls?.handshakeEnded()
    switch session {
    case .http2(let connection): connection.connectionLost()
    case .http1(let connection): connection.connectionLost()
    case .detecting: break
    }
    if let countedAs { group.metrics?.connectionClosed(protocol: countedAs) }
    onClose(self)
  }

  /// The peer's address, asked of the kernel only when there is an
  /// access log to write it in.
  private func peerForLog() -> String? {
    guard group.metrics?.logsAccess == true || group.configuration.recordsPeers else {
      return nil
    }
    return (try? Syscall.getpeername(fd: socket.fd))?.description
  }

  private func countOpened(_ protocolName: String) {
    guard let metrics = group.metrics else { return }
    metrics.connectionOpened(protocol: protocolName)
    countedAs = protocolName
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
