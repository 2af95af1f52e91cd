import CNGHTTP2
import GRPCCore

enum ShutdownPhase {
  case serving
  /// The first GOAWAY (no stream refused yet) and a PING are out.
  case noticeSent
  /// The final GOAWAY is out: no new streams; the connection ends with its
  /// last stream.
  case goAwaySent
}

/// What is needed to tell a slow peer from one that stopped reading.
struct WriteStall {
  var dataBytesSent = 0
  var socketBytesWritten = 0
  /// Bytes the owner holds that the socket would not take yet.
  var socketBacklog = 0
  var timer: ScheduledWork?
  var snapshot: (dataBytesSent: Int, socketBytesWritten: Int) = (0, 0)
}

/// Connection life: idle timeout, keepalive pings, write stalls, and the
/// graceful shutdown, all on the scheduler's clock.
extension GRPCServerConnection {
  static let keepalivePingPayload: UInt64 = 0x6761_7567_6564_6b61  // "gaugedka"
  static let shutdownPingPayload: UInt64 = 0x6761_7567_6564_7364  // "gaugedsd"
  /// How long the first GOAWAY may wait for its PING to come back.
  static let shutdownNoticeWait: Duration = .seconds(1)
  /// While the server stops, a peer that takes nothing for this long is
  /// not waited for: its calls' last bytes, UNAVAILABLE trailers included,
  /// sit behind data it does not read, and the grace period would run out
  /// for nothing.
  static let shutdownStallTimeout: Duration = .seconds(1)

  func startLife() {
    becameIdle()
    scheduleKeepalive()
  }

  func stopLife() {
    for timer in [idleTimer, keepaliveTimer, keepaliveDeadline, stall.timer, shutdownTimer] {
      timer?.cancel()
    }
    idleTimer = nil
    keepaliveTimer = nil
    keepaliveDeadline = nil
    stall.timer = nil
    shutdownTimer = nil
  }

  // MARK: Idle

  /// The last stream is gone (or there never was one).
  func becameIdle() {
    idleSince = scheduler.now
    guard let timeout = group.configuration.idleTimeout, idleTimer == nil else { return }
    idleTimer = scheduler.schedule(after: timeout) { [back] in back.target?.idleTimerFired() }
  }

  /// One timer serves every idle spell: when it fires during a busy spell
  /// it lapses, and the next idle spell arms it again.
  private func idleTimerFired() {
    idleTimer = nil
    guard let since = idleSince, let timeout = group.configuration.idleTimeout, streams.isEmpty
    else {
      return
    }
    let due = since + timeout
    guard scheduler.now >= due else {
      idleTimer = scheduler.schedule(after: due - scheduler.now) { [back] in
        back.target?.idleTimerFired()
      }
      return
    }
    // grpc-core's max_connection_idle says "max_idle" too.
    session.terminate(errorCode: NGHTTP2_NO_ERROR.rawValue, reason: "max_idle")
    outputReady()
  }

  // MARK: Keepalive

  private func scheduleKeepalive(after delay: Duration? = nil) {
    guard let interval = group.configuration.keepalive.interval else { return }
    keepaliveTimer?.cancel()
    keepaliveTimer = scheduler.schedule(after: delay ?? interval) { [back] in
      back.target?.keepaliveDue()
    }
  }

  /// A peer that sent something within the interval is evidently there;
  /// a quiet one is pinged and must answer within the timeout.
  private func keepaliveDue() {
    keepaliveTimer = nil
    guard let interval = group.configuration.keepalive.interval else { return }
    let quiet = scheduler.now - lastReceived
    guard quiet >= interval else { return scheduleKeepalive(after: interval - quiet) }
    session.submitPing(payload: Self.keepalivePingPayload)
    let sent = scheduler.now
    keepaliveDeadline = scheduler.schedule(after: group.configuration.keepalive.timeout) {
      [back] in back.target?.keepaliveTimedOut(pingSent: sent)
    }
    outputReady()
  }

  private func keepaliveTimedOut(pingSent: ContinuousClock.Instant) {
    keepaliveDeadline = nil
    // Any bytes from the peer since the ping show it is alive.
    guard lastReceived <= pingSent else { return scheduleKeepalive() }
    abandoned = true
    outputReady()
  }

  func pingAnswered(payload: UInt64) {
    switch payload {
    case Self.keepalivePingPayload:
      keepaliveDeadline?.cancel()
      keepaliveDeadline = nil
      scheduleKeepalive()
    case Self.shutdownPingPayload:
      sendFinalGoAway()
    default:
      break
    }
  }

  // MARK: Write stalls

  /// The owner wrote `bytesWritten` bytes to the socket and holds
  /// `backlog` more that it would not take yet.
  public func socketFlushed(bytesWritten: Int, backlog: Int) {
    stall.socketBytesWritten += bytesWritten
    stall.socketBacklog = backlog
    if backlog > 0 { armStallTimer() }
  }

  private var owesPeer: Bool { queuedResponseBytes > 0 || stall.socketBacklog > 0 }

  /// The configured timeout, shortened while the server stops.
  private var stallTimeout: Duration? {
    let configured = group.configuration.writeStallTimeout
    guard shutdownPhase == .serving else {
      return min(configured ?? Self.shutdownStallTimeout, Self.shutdownStallTimeout)
    }
    return configured
  }

  func armStallTimer() {
    guard let timeout = stallTimeout, stall.timer == nil, owesPeer else { return }
    stall.snapshot = (stall.dataBytesSent, stall.socketBytesWritten)
    stall.timer = scheduler.schedule(after: timeout) { [back] in back.target?.stallCheck() }
  }

  /// Stalled means owing bytes at both ends of a whole period without the
  /// peer taking any: not one DATA byte past its flow-control window, or
  /// not one byte into the socket.
  private func stallCheck() {
    stall.timer = nil
    guard owesPeer, let timeout = stallTimeout else { return }
    if stall.socketBacklog > 0, stall.socketBytesWritten == stall.snapshot.socketBytesWritten {
      // The socket takes nothing, so not even a GOAWAY would get out.
      abandoned = true
      outputReady()
      return
    }
    if queuedResponseBytes > 0, stall.dataBytesSent == stall.snapshot.dataBytesSent {
      if shutdownPhase == .serving {
        let reason = "write stalled: the peer took no response data for \(timeout)"
        session.terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue, reason: reason)
        logRefusal(reason)
      } else {
        // Not the peer's fault: it only has to read within the usual timeout.
        session.terminate(
          errorCode: NGHTTP2_NO_ERROR.rawValue,
          reason: "the server is shutting down; the peer took no response data for \(timeout)")
      }
      outputReady()
      return
    }
    armStallTimer()
  }

  // MARK: Graceful shutdown

  /// Tells the peer to open no more streams, as grpc-core does: a GOAWAY
  /// that refuses nothing yet and a PING; once the PING comes back, every
  /// stream the peer opened before it has arrived, and the final GOAWAY
  /// names the last one. Calls in flight carry on.
  public func beginShutdown() {
    guard shutdownPhase == .serving else { return }
    shutdownPhase = .noticeSent
    for stream in Array(streams.values) where stream.callIsLive || stream.call == nil {
      stream.handler?.serverShutdownBegan()
    }
    // The stall clock restarts with the shorter timeout.
    stall.timer?.cancel()
    stall.timer = nil
    armStallTimer()
    // With no stream open, libnghttp2 stops reading once a GOAWAY is out,
    // so the PING would not be heard: the final GOAWAY goes at once.
    guard !streams.isEmpty else { return sendFinalGoAway() }
    session.submitShutdownNotice()
    session.submitPing(payload: Self.shutdownPingPayload)
    shutdownTimer = scheduler.schedule(after: Self.shutdownNoticeWait) { [back] in
      back.target?.sendFinalGoAway()
    }
    outputReady()
  }

  /// Also when the last stream closes before the PING is back, for the
  /// same reason.
  func sendFinalGoAway() {
    guard shutdownPhase == .noticeSent else { return }
    shutdownTimer?.cancel()
    shutdownTimer = nil
    shutdownPhase = .goAwaySent
    session.goAway(errorCode: NGHTTP2_NO_ERROR.rawValue)
    outputReady()
  }

  /// The grace period is over: calls still running end with UNAVAILABLE
  /// and their handlers are cancelled; streams without a call are refused.
  public func endGracePeriod() {
    beginShutdown()
    sendFinalGoAway()
    let status = GRPCStatus(.unavailable, "the server is shutting down")
    for stream in streams.values.sorted(by: { $0.id < $1.id }) {
      if stream.callIsLive {
        failCall(stream, status, resetCode: NGHTTP2_NO_ERROR.rawValue)
      } else if stream.call == nil, !stream.responseStarted {
        session.resetStream(streamID: stream.id, errorCode: NGHTTP2_REFUSED_STREAM.rawValue)
      }
    }
    outputReady()
  }
}
