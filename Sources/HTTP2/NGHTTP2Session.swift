import CNGHTTP2

/// Owns one nghttp2 session, server or client. Bytes go in through
/// `receive`, frames come out through `drainOutput`; no I/O happens here.
///
/// `@usableFromInline` so that the bodies of its `@inlinable` members reach
/// the transports: without it, a package type's are not serialized.
@usableFromInline package final class NGHTTP2Session {
  package enum Role {
    /// Accepts streams the peer opens (`GRPCServerConnection`).
    case server
    /// Opens streams with `submitRequest` (`GRPCClientConnection`).
    case client
  }

  package struct Settings {
    package var maxConcurrentStreams: UInt32 = 1000
    package var initialWindowSize: UInt32 = 1 << 20
    package var connectionWindowSize: Int32 = 8 << 20
    package var maxHeaderListSize: UInt32 = 16 << 10
    package var floodLimits = FloodLimits()
    /// Which flood limits to leave to libnghttp2 when it has them; tests
    /// narrow this to exercise gauged's own counting.
    package var libraryFloodChecks = FloodChecks.all

    package init() {}
  }

  package enum Failure: Error, Equatable {
    /// nghttp2 gave up on the connection (bad preface, flood, protocol
    /// error); a GOAWAY may be queued, so drain output before closing.
    case fatal(String)
  }

  /// Not private: the one-call wrappers below are `@inlinable`, since the
  /// transports call them per message and a call each would cost more
  /// than the wrapper.
  @usableFromInline var session: OpaquePointer?
  /// The session's allocator (`gauged_nghttp2_allocator`); freed after it.
  private let allocator: UnsafeMutablePointer<gauged_nghttp2_allocator>
  private let frameBuffer: SharedFrameBuffer?
  /// Held so that the cache outlives the session's last free.
  private let blockCache: NGHTTP2BlockCache?
  /// Reaches the delegate (`attach`) for the callbacks. Held strongly
  /// here; the callbacks use `callerReference`, which is borrowed without
  /// a reference count (a class `var` read is a retain).
  private var caller = HTTP2SessionDelegateCaller() {
    didSet { callerReference = .passUnretained(caller) }
  }
  private var callerReference: Unmanaged<HTTP2SessionDelegateCaller>

  /// Makes `delegate` the receiver of this session's events; called once,
  /// by the delegate's initializer, before any input or output. Not
  /// retained: the delegate owns the session, and callbacks run only
  /// inside its calls into the session.
  package func attach<Delegate: HTTP2SessionDelegate>(delegate: Delegate) {
    caller = TypedHTTP2SessionDelegateCaller(delegate)
  }
  /// The flood limits libnghttp2 enforces on this session.
  package let libraryFloodChecks: FloodChecks
  /// The stream window announced in SETTINGS.
  package let initialWindowSize: UInt32
  fileprivate var floodGuard: FloodGuard
  fileprivate let clock: () -> ContinuousClock.Instant
  /// Set once a GOAWAY that ends the connection has been queued: input is
  /// ignored from then on, and the connection closes once it is sent.
  @usableFromInline package private(set) var terminationReason: String?
  /// A server's watch on the client's frames (nil for a client session,
  /// which keeps libnghttp2's own checks).
  private var inboundFrames: InboundFrameScanner?

  /// `frameBuffer`: the outbound frame buffer this session shares with
  /// the other sessions of its event loop (nil: a buffer of its own);
  /// `blockCache`: the small blocks they share (nil: malloc each time).
  package init(
    role: Role = .server, settings: Settings, frameBuffer: SharedFrameBuffer? = nil,
    blockCache: NGHTTP2BlockCache? = nil,
    clock: @escaping () -> ContinuousClock.Instant = { .now }
  ) {
    self.clock = clock
    self.callerReference = .passUnretained(caller)
    self.inboundFrames = role == .server ? InboundFrameScanner() : nil
    self.initialWindowSize = settings.initialWindowSize
    self.frameBuffer = frameBuffer
    self.blockCache = blockCache
    allocator = .allocate(capacity: 1)
    var callbacks: OpaquePointer?
    nghttp2_session_callbacks_new(&callbacks)
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, onBeginFrame)
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
    nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSent)
    nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks, onFrameNotSent)

    var options: OpaquePointer?
    nghttp2_option_new(&options)
    defer { nghttp2_option_del(options) }
    // Each flood limit is left to libnghttp2 when the linked build has it
    // (found by symbol: Debian backports some to 1.52); the FloodGuard
    // counts the rest. A limit kept from the library is set out of reach,
    // since the library applies its defaults unasked.
    let limits = settings.floodLimits
    let wanted = settings.libraryFloodChecks
    func limit(_ check: FloodChecks, _ value: Int) -> Int { wanted.contains(check) ? value : .max }
    var enforced: FloodChecks = []
    if gauged_nghttp2_set_max_settings(
      options, limit(.settingsEntries, limits.maxSettingsEntries)) != 0
    {
      enforced.insert(.settingsEntries)
    }
    if gauged_nghttp2_set_max_outbound_ack(options, limit(.owedAcks, limits.maxOwedAcks)) != 0 {
      enforced.insert(.owedAcks)
    }
    if gauged_nghttp2_set_max_continuations(
      options, limit(.continuations, limits.maxContinuations)) != 0
    {
      enforced.insert(.continuations)
    }
    if gauged_nghttp2_set_stream_reset_rate_limit(
      options, UInt64(limit(.resetRate, limits.resetBurst)), UInt64(limits.resetsPerSecond)) != 0
    {
      enforced.insert(.resetRate)
    }
    enforced.formIntersection(wanted)
    self.libraryFloodChecks = enforced
    self.floodGuard = FloodGuard(limits: limits, checks: FloodChecks.all.subtracting(enforced))

    if role == .client {
      // Until the server's SETTINGS arrive, open no more streams than every
      // server allows (RFC 9113 suggests at least 100); nghttp2 queues the
      // rest instead of having them refused.
      nghttp2_option_set_peer_max_concurrent_streams(options, 100)
    }
    if role == .server {
      // gRPC does not use stream priorities, the one use of closed streams;
      // kept, each costs 224 bytes and holds a stream map entry.
      nghttp2_option_set_no_closed_streams(options, 1)
      // The server checks RFC 9113's request rules itself (`RequestHead`),
      // where it recognises the fields anyway: nghttp2's checks looked at
      // every field a second time, 2,400 of a unary call's 27,300
      // instructions, where gauged's own cost about 700.
      nghttp2_option_set_no_http_messaging(options, 1)
    }
    gauged_nghttp2_session_new(
      &session, role == .server ? 1 : 0, callbacks, options, allocator, frameBuffer?.bytes,
      blockCache?.cache)
    precondition(session != nil, "nghttp2_session_new3 failed (out of memory)")
    nghttp2_session_set_user_data(session, Unmanaged.passUnretained(self).toOpaque())

    var entries = [
      nghttp2_settings_entry(
        settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
        value: settings.maxConcurrentStreams),
      nghttp2_settings_entry(
        settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue),
        value: settings.initialWindowSize),
      nghttp2_settings_entry(
        settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
        value: settings.maxHeaderListSize),
    ]
    if role == .server {
      entries.append(
        nghttp2_settings_entry(
          settings_id: Int32(NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES.rawValue), value: 1))
    }
    if role == .client {
      // gRPC has no use for server push.
      entries.append(
        nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0))
    }
    nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    nghttp2_session_set_local_window_size(
      session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, settings.connectionWindowSize)
  }

  deinit {
    nghttp2_session_del(session)
    allocator.deallocate()
  }

  /// Whether the session serializes its frames in the loop's shared buffer.
  package var sharesFrameBuffer: Bool {
    gauged_nghttp2_shares_frame_buffer(allocator) != 0
  }

  /// Gives the memory an idle session does not need back to the system:
  /// the stream map's page, when no stream is open. Touching it again
  /// costs a page fault, so this is for sessions idle a while.
  @discardableResult
  package func trimIdleMemory() -> Bool {
    gauged_nghttp2_trim_stream_map(allocator) != 0
  }

  /// Feeds received bytes; callbacks run before this returns.
  package func receive(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    if let terminationReason { throw .fatal(terminationReason) }
    guard bytes.count > 0 else { return }
    guard inboundFrames != nil else { return try feed(bytes) }
    var offset = 0
    while offset < bytes.count {
      guard let stop = inboundFrames?.scan(bytes, from: offset) else { return }
      // The frames before the offending one are the session's first, so
      // that it judges that one in the state they leave.
      if stop.cleanEnd > offset {
        try feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<stop.cleanEnd]))
      }
      if let violation = stop.violation {
        try reject(violation)
        if stop.resume > stop.cleanEnd {
          try feed(UnsafeRawBufferPointer(rebasing: bytes[stop.cleanEnd..<stop.resume]))
        }
      }
      offset = stop.resume
    }
  }

  /// Ends the connection for a frame that breaks a stream rule, unless the
  /// session still holds the stream and so judges the frame itself.
  private func reject(_ violation: InboundFrameScanner.Violation) throws(Failure) {
    let errorCode: UInt32
    switch violation {
    case .streamClosedByClient(let streamID):
      guard nghttp2_session_find_stream(session, streamID) == nil else { return }
      errorCode = NGHTTP2_STREAM_CLOSED.rawValue
    case .priorityWithoutStream, .dependsOnItself, .streamNeverOpened:
      errorCode = NGHTTP2_PROTOCOL_ERROR.rawValue
    }
    terminate(errorCode: errorCode, reason: violation.reason)
    throw .fatal(violation.reason)
  }

  private func feed(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    let result = nghttp2_session_mem_recv(
      session, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
    if let terminationReason { throw .fatal(terminationReason) }
    if result < 0 {
      // nghttp2 stops here without a GOAWAY for some errors (a flood of
      // CONTINUATION frames or of unread acknowledgements); say why.
      let reason = String(cString: nghttp2_strerror(Int32(result)))
      let floods = [NGHTTP2_ERR_FLOODED.rawValue, NGHTTP2_ERR_TOO_MANY_CONTINUATIONS.rawValue]
      terminate(
        errorCode: floods.contains(Int32(result))
          ? NGHTTP2_ENHANCE_YOUR_CALM.rawValue : NGHTTP2_PROTOCOL_ERROR.rawValue,
        reason: reason)
      throw .fatal(reason)
    }
  }

  /// Appends frames ready to go to `buffer` until it holds `limit` bytes
  /// (one frame may cross it); whatever is left waits in the session.
  package func drainOutput(into buffer: inout [UInt8], limit: Int = .max) throws(Failure) {
    // What mem_send returns lies in the shared buffer: it is copied out
    // before any other session of the loop may send.
    frameBuffer?.beginUse()
    defer { frameBuffer?.endUse() }
    while buffer.count < limit {
      var chunk: UnsafePointer<UInt8>?
      let count = nghttp2_session_mem_send(session, &chunk)
      if count < 0 { throw .fatal(String(cString: nghttp2_strerror(Int32(count)))) }
      guard count > 0, let chunk else {
        floodGuard.outputDrained()
        return
      }
      buffer.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
    }
  }

  /// False once both sides are done, or a terminating GOAWAY has been
  /// taken for sending: the connection can be closed.
  @inlinable package var isAlive: Bool {
    if terminationReason != nil { return wantsWrite }
    return nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0
  }

  @inlinable package var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }

  /// Response headers that end the stream (a trailers-only answer).
  package func submitFinalResponse(streamID: Int32, headers: [HeaderField]) {
    withNameValues(headers) { entries, count in
      _ = nghttp2_submit_response(session, streamID, entries, count, nil)
    }
  }

  /// Submits a header block laid out by `HeaderBlockWriter`.
  func submitLaidOut(
    streamID: Int32, endsStream: Bool, entries: UnsafeMutablePointer<nghttp2_nv>, count: Int
  ) {
    if endsStream {
      _ = nghttp2_submit_response(session, streamID, entries, count, nil)
    } else {
      _ = nghttp2_submit_headers(
        session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, nil, entries, count, nil)
    }
  }

  /// Response headers that neither end the stream nor attach a body: the
  /// body follows through `attachData`, the end through `submitTrailers`.
  package func submitResponseHeaders(streamID: Int32, headers: PackedHeaders) {
    headers.withNameValues { entries, count in
      _ = nghttp2_submit_headers(
        session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, nil, entries, count, nil)
    }
  }

  /// Attaches the delegate's `streamOutbound` as the stream's DATA source,
  /// until it answers `.paused` or `.end`. False when the stream is gone
  /// (or, against the rules, has a source already).
  package func attachData(streamID: Int32) -> Bool {
    var provider = nghttp2_data_provider(
      source: nghttp2_data_source(ptr: nil), read_callback: readOutbound)
    return nghttp2_submit_data(
      session, UInt8(NGHTTP2_FLAG_END_STREAM.rawValue), streamID, &provider) == 0
  }

  /// Sets how much a stream's peer may have sent and we not yet read. A
  /// smaller window takes effect without telling the peer: nghttp2 holds
  /// back WINDOW_UPDATEs until the credit already granted is used up.
  /// Until the peer acknowledges our SETTINGS, nghttp2 adds the announced
  /// initial window to every open stream's when the ACK arrives, undoing a
  /// smaller one set before (`HTTP2SessionDelegate.settingsAcknowledged`).
  @inlinable package func setReceiveWindow(streamID: Int32, bytes: UInt32) {
    _ = nghttp2_session_set_local_window_size(
      session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, Int32(clamping: bytes))
  }

  /// Wakes a stream whose data source said `.pending`.
  @inlinable package func resumeData(streamID: Int32) {
    _ = nghttp2_session_resume_data(session, streamID)
  }

  @inlinable package func resetStream(streamID: Int32, errorCode: UInt32) {
    _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
  }

  @inlinable package func isRemoteClosed(streamID: Int32) -> Bool {
    nghttp2_session_get_stream_remote_close(session, streamID) != 0
  }

  /// GOAWAY naming the last stream processed: streams the peer opens
  /// after that are ignored, those already open carry on.
  package func goAway(errorCode: UInt32, debug: String = "") {
    let lastStream = nghttp2_session_get_last_proc_stream_id(session)
    var bytes = Array(debug.utf8)
    _ = nghttp2_submit_goaway(
      session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStream, errorCode, &bytes, bytes.count)
  }

  /// The first step of a graceful shutdown: a GOAWAY that refuses nothing
  /// yet but tells the peer to stop opening streams. The real one, sent
  /// with `goAway`, should follow about a round trip later.
  package func submitShutdownNotice() {
    _ = nghttp2_submit_shutdown_notice(session)
  }

  /// GOAWAY, then the connection ends as soon as it is written: input is no
  /// longer read and `isAlive` turns false.
  package func terminate(errorCode: UInt32, reason: String) {
    guard terminationReason == nil else { return }
    goAway(errorCode: errorCode, debug: reason)
    terminationReason = reason
  }

  /// A PING carrying `payload`, answered by `pingAcknowledged`.
  package func submitPing(payload: UInt64) {
    var bytes = payload.bigEndian
    withUnsafeBytes(of: &bytes) { raw in
      _ = nghttp2_submit_ping(
        session, UInt8(NGHTTP2_FLAG_NONE.rawValue),
        raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
  }

  fileprivate func flood(_ reason: String) {
    terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue, reason: reason)
  }

  /// Opens a stream with request headers; its data comes from the
  /// delegate's `streamOutbound`. Returns the stream id, or nil when no
  /// stream can be opened (ids exhausted, the session is going away).
  package func submitRequest(headers: [HeaderField]) -> Int32? {
    var streamID: Int32 = -1
    withNameValues(headers) { entries, count in
      var provider = nghttp2_data_provider(
        source: nghttp2_data_source(ptr: nil), read_callback: readOutbound)
      streamID = nghttp2_submit_request(session, nil, entries, count, &provider, nil)
    }
    return streamID > 0 ? streamID : nil
  }

  /// Trailers ending the stream, after whatever DATA is queued for it.
  package func submitTrailers(streamID: Int32, trailers: PackedHeaders) {
    trailers.withNameValues { entries, count in
      _ = nghttp2_submit_trailer(session, streamID, entries, count)
    }
  }

  /// nghttp2 copies names and values on submit, so they only need to live
  /// for the duration of `body`: both the bytes and the name/value array
  /// are laid out in temporary (usually stack) memory, as `PackedHeaders`
  /// lays out the blocks it keeps.
  private func withNameValues(
    _ headers: [HeaderField], _ body: (UnsafeMutablePointer<nghttp2_nv>, Int) -> Void
  ) {
    let textBytes = PackedHeaders.textBytes(of: headers)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, textBytes)) { text in
      withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: max(1, headers.count)) {
        entries in
        PackedHeaders.lay(headers, entries: entries.baseAddress!, text: text.baseAddress!)
        body(entries.baseAddress!, headers.count)
      }
    }
  }

  /// Runs `body` with the session that `userData` points to, without
  /// retaining it: the session is inside its own `receive` or `drainOutput`
  /// whenever nghttp2 calls back, so it is alive, and a retain and release
  /// per callback (several per frame) showed in profiles.
  @inline(__always)
  fileprivate static func withOwner<Result>(
    _ userData: UnsafeMutableRawPointer?, else failure: Result,
    _ body: (NGHTTP2Session) -> Result
  ) -> Result {
    guard let userData else { return failure }
    return Unmanaged<NGHTTP2Session>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
  }

  /// Runs `body` with the delegate's caller, borrowed.
  @inline(__always)
  fileprivate func withDelegate<Result>(_ body: (HTTP2SessionDelegateCaller) -> Result) -> Result {
    callerReference._withUnsafeGuaranteedRef(body)
  }
}

// nghttp2 callbacks. Each recovers the session from user data, reports to
// the delegate, and never lets a Swift error escape into C.

private let callbackFailure = NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
private let temporalFailure = NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue

private func isRequestHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Bool {
  frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue)
}

private func onBeginFrame(
  _ session: OpaquePointer?, _ header: UnsafePointer<nghttp2_frame_hd>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let header else { return callbackFailure }
  return NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    guard owner.terminationReason == nil else { return callbackFailure }
    let isAck = header.pointee.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
    if let flood = owner.floodGuard.frameBegins(
      type: header.pointee.type, length: header.pointee.length, isAck: isAck)
    {
      owner.flood(flood)
      return callbackFailure
    }
    return 0
  }
}

private func onBeginHeaders(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let frame else { return callbackFailure }
  return NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    if isRequestHeaders(frame), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
      owner.withDelegate { $0.streamBegan(frame.pointee.hd.stream_id) }
    }
    return 0
  }
}

private func onHeader(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ name: UnsafePointer<UInt8>?, _ nameLength: Int, _ value: UnsafePointer<UInt8>?,
  _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let frame else { return callbackFailure }
  return NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    let accepted = owner.withDelegate {
      $0.streamHeader(
        frame.pointee.hd.stream_id,
        name: UnsafeRawBufferPointer(start: name, count: nameLength),
        value: UnsafeRawBufferPointer(start: value, count: valueLength))
    }
    // A temporal failure resets just this stream; the connection lives on.
    return accepted ? 0 : temporalFailure
  }
}

private func onFrameReceived(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let frame else { return callbackFailure }
  return NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    frameReceived(frame, by: owner)
  }
}

private func frameReceived(_ frame: UnsafePointer<nghttp2_frame>, by owner: NGHTTP2Session)
  -> Int32
{
  let streamID = frame.pointee.hd.stream_id
  let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
  let isAck = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
  switch UInt32(frame.pointee.hd.type) {
  case NGHTTP2_PING.rawValue:
    if isAck {
      let payload = withUnsafeBytes(of: frame.pointee.ping.opaque_data) {
        UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))
      }
      owner.withDelegate { $0.pingAcknowledged(payload: payload) }
    } else {
      if let flood = owner.floodGuard.ackOwed() { owner.flood(flood) }
      owner.withDelegate { $0.pingReceived() }
    }
  case NGHTTP2_SETTINGS.rawValue where !isAck:
    if let flood = owner.floodGuard.ackOwed() { owner.flood(flood) }
  case NGHTTP2_SETTINGS.rawValue:
    owner.withDelegate { $0.settingsAcknowledged() }
  case NGHTTP2_RST_STREAM.rawValue:
    if let flood = owner.floodGuard.resetReceived(at: owner.clock()) { owner.flood(flood) }
  case NGHTTP2_HEADERS.rawValue:
    let category = frame.pointee.headers.cat
    if category == NGHTTP2_HCAT_REQUEST || category == NGHTTP2_HCAT_RESPONSE {
      owner.withDelegate { $0.streamHeadersEnded(streamID, endStream: endStream) }
    } else {
      // Trailers: the header callbacks delivered their fields.
      owner.withDelegate { $0.streamTrailersEnded(streamID, endStream: endStream) }
    }
  case NGHTTP2_DATA.rawValue:
    if endStream { owner.withDelegate { $0.streamEnded(streamID) } }
  default:
    break
  }
  return owner.terminationReason == nil ? 0 : callbackFailure
}

private func onDataChunk(
  _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?,
  _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    owner.withDelegate {
      $0.streamData(streamID, UnsafeRawBufferPointer(start: data, count: length))
    }
    return 0
  }
}

private func onStreamClose(
  _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    owner.withDelegate { $0.streamClosed(streamID, errorCode: errorCode) }
    return 0
  }
}

private func onFrameSent(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let frame else { return callbackFailure }
  let type = UInt32(frame.pointee.hd.type)
  let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
  // Most frames are a subscription's DATA, one per event per stream: they
  // return before anything is looked up.
  let isHeaders = type == NGHTTP2_HEADERS.rawValue
  guard isHeaders || (type == NGHTTP2_DATA.rawValue && endStream) else { return 0 }
  return NGHTTP2Session.withOwner(userData, else: callbackFailure) { owner in
    if isHeaders { owner.withDelegate { $0.headersSent() } }
    if endStream { owner.withDelegate { $0.streamEndSent(frame.pointee.hd.stream_id) } }
    return 0
  }
}

/// nghttp2 drops a response or trailers HEADERS frame it cannot send (a
/// header block past its 64 KiB limit) and leaves the stream open, so the
/// peer would wait for the rest until its deadline. The stream is reset
/// instead. A request's HEADERS are left alone: nghttp2 closes that stream
/// itself, and the peer never saw it.
private func onFrameNotSent(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ errorCode: Int32,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let session, let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
    frame.pointee.hd.stream_id > 0, frame.pointee.headers.cat != NGHTTP2_HCAT_REQUEST
  else { return 0 }
  _ = nghttp2_submit_rst_stream(
    session, UInt8(NGHTTP2_FLAG_NONE.rawValue), frame.pointee.hd.stream_id,
    NGHTTP2_INTERNAL_ERROR.rawValue)
  return 0
}

private func readOutbound(
  _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?,
  _ length: Int, _ dataFlags: UnsafeMutablePointer<UInt32>?,
  _ source: UnsafeMutablePointer<nghttp2_data_source>?, _ userData: UnsafeMutableRawPointer?
) -> Int {
  NGHTTP2Session.withOwner(userData, else: Int(callbackFailure)) { owner in
    outbound(
      of: streamID, into: UnsafeMutableRawBufferPointer(start: buffer, count: length),
      flags: dataFlags, of: owner)
  }
}

private func outbound(
  of streamID: Int32, into buffer: UnsafeMutableRawBufferPointer,
  flags dataFlags: UnsafeMutablePointer<UInt32>?, of owner: NGHTTP2Session
) -> Int {
  guard let chunk = owner.withDelegate({ $0.streamOutbound(streamID, into: buffer) }) else {
    return Int(callbackFailure)
  }
  switch chunk {
  case .bytes(let count):
    return count
  case .pending:
    return Int(NGHTTP2_ERR_DEFERRED.rawValue)
  case .paused(let count):
    // The source detaches after this frame; the stream stays open.
    dataFlags?.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
    return count
  case .end(let count, let trailers):
    var flags = NGHTTP2_DATA_FLAG_EOF.rawValue
    if let trailers {
      flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
      owner.submitTrailers(streamID: streamID, trailers: trailers)
    }
    dataFlags?.pointee |= flags
    return count
  }
}
