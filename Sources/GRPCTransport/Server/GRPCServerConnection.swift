import CNGHTTP2
import GRPCCore
import GaugeJSON
import HTTP2

/// One HTTP/2 connection carrying gRPC calls, as a state machine: bytes in
/// through `receive`, bytes out through `drainOutput`, calls dispatched to
/// the router's services. No I/O happens here; the socket glue (or a test)
/// moves the bytes.
public final class GRPCServerConnection {
  /// Shared with the other connections of this loop.
  let group: ConnectionGroup
  /// The client's address, set only when the access log wants it.
  var peer: String?
  /// The `authorization` its requests repeat, as text, and what the access
  /// gate concluded about it; made with the first request that carries one.
  private(set) var credentialMemo: CredentialMemo?
  /// The most a drained stream keeps of its outbound buffer.
  static let keptOutboundCapacity = 1024
  let scheduler: CallScheduler
  let session: NGHTTP2Session
  var streams = StreamTable<ServerStream>()
  /// Borrowed from the group while a header block arrives.
  private var incomingBlock: IncomingHeaderBlock? {
    didSet { incomingBlockReference = incomingBlock.map { .passUnretained($0) } }
  }
  /// `incomingBlock`, borrowed by `streamHeader` without the retain and
  /// release that reading a class `var` costs, eight times per request.
  private var incomingBlockReference: Unmanaged<IncomingHeaderBlock>?
  /// One zlib stream each way for the whole connection, made on first use:
  /// messages are compressed and inflated one at a time on the loop.
  private lazy var inflater = GzipInflater()
  private lazy var deflater = GzipDeflater()
  /// The owner's flush request (it flushes once per turn), made through
  /// `outputReady()`.
  private let requestFlush: () -> Void
  /// A flush has been requested and `drainOutput` has not run since: more
  /// output needs no new request. Every send of a fan-out asks otherwise.
  private var flushRequested = false

  // Limits (GRPCServerConnection+Limits.swift).
  let callsInFlight = CallsInFlight()
  /// Response bytes queued on streams and not yet taken by nghttp2.
  var queuedResponseBytes = 0
  /// Set while this connection's input is read in small bites
  /// (`limitInboundBacklog`): new streams start with the small window.
  var inboundBacklogLimited = false
  /// Bytes of request messages received in part.
  var partialRequestBytes = 0

  // Connection life (GRPCServerConnection+Life.swift).
  var pingPolicy: PingAbusePolicy
  var lastReceived: ContinuousClock.Instant
  /// The connection's refusal was logged (see `logRefusal`).
  var refusalLogged = false
  var idleSince: ContinuousClock.Instant?
  var idleTimer: ScheduledWork?
  var keepaliveTimer: ScheduledWork?
  var keepaliveDeadline: ScheduledWork?
  var stall = WriteStall()
  var shutdownPhase = ShutdownPhase.serving
  var shutdownTimer: ScheduledWork?
  /// The peer is beyond reach (a keepalive went unanswered, writes stalled):
  /// the owner closes the socket without flushing.
  public internal(set) var abandoned = false
  /// What the connection's timers hold (see `BackReference`).
  let back = BackReference<GRPCServerConnection>()

  /// A connection with nothing shared (tests, a server of one connection).
  public convenience init(
    router: Router, configuration: ServerConfiguration, scheduler: CallScheduler,
    outputReady: @escaping () -> Void
  ) {
    self.init(
      group: ConnectionGroup(router: router, configuration: configuration),
      scheduler: scheduler, outputReady: outputReady)
  }

  /// Asks the owner to flush, once until the next `drainOutput`.
  func outputReady() {
    guard !flushRequested else { return }
    flushRequested = true
    requestFlush()
  }

  /// `group`: what this connection shares with the others of its loop.
  public init(
    group: ConnectionGroup, scheduler: CallScheduler, outputReady: @escaping () -> Void
  ) {
    self.group = group
    let configuration = group.configuration
    self.scheduler = scheduler
    self.requestFlush = outputReady
    var settings = NGHTTP2Session.Settings()
    settings.maxConcurrentStreams = configuration.maxConcurrentStreams
    settings.maxHeaderListSize = UInt32(configuration.maxHeaderListBytes)
    settings.floodLimits = configuration.floodLimits
    settings.libraryFloodChecks = configuration.libraryFloodChecks
    self.session = NGHTTP2Session(
      settings: settings, frameBuffer: group.frameBuffer, blockCache: group.blockCache,
      clock: { [scheduler] in scheduler.now })
    self.pingPolicy = PingAbusePolicy(
      minInterval: configuration.keepalive.minReceivedPingInterval,
      maxStrikes: configuration.keepalive.maxPingStrikes)
    self.lastReceived = scheduler.now
    session.attach(delegate: self)
    back.target = self
    startLife()
  }

  deinit {
    back.target = nil
  }

  /// Feeds bytes from the peer. False when the connection is beyond saving:
  /// drain the output (a GOAWAY may be queued), then close.
  public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    lastReceived = scheduler.now
    do {
      try session.receive(bytes)
      return true
    } catch {
      // A flood or a broken rule: the session has queued its GOAWAY.
      if case .fatal(let reason) = error { logRefusal(reason) }
      return false
    }
  }

  /// Appends what is ready to send, stopping once `buffer` holds about
  /// `limit` bytes so that a peer that does not read leaves its backlog
  /// here, where it is bounded. False on a fatal session error.
  public func drainOutput(into buffer: inout [UInt8], limit: Int = .max) -> Bool {
    // Reset first: output queued while the session drains (a handler asked
    // for more) asks for another flush, as before.
    flushRequested = false
    do {
      try session.drainOutput(into: &buffer, limit: limit)
    } catch {
      return false
    }
    // Response data the session could not take yet (the peer's window is
    // shut) starts the stall clock; a response that went out whole, the
    // common case, arms no timer.
    armStallTimer()
    return true
  }

  /// False once the connection can be closed: both sides are done, or it
  /// is ending and everything it had to say is out.
  public var isAlive: Bool {
    if abandoned { return false }
    switch shutdownPhase {
    case .serving: return session.isAlive
    // Streams may still be on their way until the final GOAWAY.
    case .noticeSent: return session.terminationReason == nil || session.wantsWrite
    case .goAwaySent: return streams.isEmpty ? session.wantsWrite : session.isAlive
    }
  }

  public var openStreamCount: Int { streams.count }

  /// Gives back what an idle connection only needs while busy: the session's
  /// stream map page and this connection's per-stream tables, or, while
  /// streams are open, their emptied outbound buffers. False when nothing
  /// could be given back.
  @discardableResult
  public func trimIdleMemory() -> Bool {
    guard streams.isEmpty else {
      // Open streams (idle subscriptions) keep nothing for their next
      // message: it may be hours away.
      for stream in streams.values { stream.releaseDrainedOutbound() }
      return true
    }
    guard session.trimIdleMemory() else { return false }
    streams = StreamTable()
    return true
  }

  /// The socket is gone: every call still running is cancelled.
  public func connectionLost() {
    let live = streams.values
    streams.removeAll()
    queuedResponseBytes = 0
    partialRequestBytes = 0
    stopLife()
    for stream in live {
      stream.deadlineTimer?.cancel()
      stream.call?.onOutboundDrained = nil
      if stream.callIsLive {
        stream.call?.markFinished()
        stream.handler?.cancel(GRPCStatus(.unavailable, "connection lost"))
      } else if stream.call == nil {
        stream.handler?.cancel(GRPCStatus(.unavailable, "connection lost"))
        stream.handler = nil
      }
      stream.call?.detach()
    }
  }

  // MARK: Dispatch

  private func dispatch(_ stream: ServerStream, head: borrowing RequestHead, endStream: Bool) {
    // Not gRPC: REST, live events, the index page, and gRPC-Web and
    // Connect calls (the HTTP faces); a gRPC method's path is still told
    // what gRPC needs when no web protocol claims the request.
    guard head.isGRPC else {
      guard group.router.namesService(head.path), case .found = group.route(head.path),
        !group.httpResponder.answersWebRPC
          || !WebRPCProtocol.claims(method: head.methodText, contentType: head.contentType)
      else {
        beginHTTPRequest(stream, head: head, endStream: endStream)
        return
      }
      if head.method != .post {
        respondHTTP(
          stream, status: 405, title: "Method Not Allowed", detail: "gRPC requires POST",
          allow: "POST", headOnly: head.method == .head)
      } else {
        respondHTTP(
          stream, status: 415, title: "Unsupported Media Type",
          detail: "content-type must be application/grpc, got \"\(head.contentType)\"")
      }
      return
    }
    guard head.method == .post else {
      respondHTTP(
        stream, status: 405, title: "Method Not Allowed", detail: "gRPC requires POST",
        allow: "POST", headOnly: head.method == .head)
      return
    }
    if let key = head.badBinaryHeader {
      respondHTTP(
        stream, status: 400, title: "Bad Request", detail: "header \(key) is not base64")
      return
    }
    var timeout: Duration?
    if let raw = head.timeout {
      guard let parsed = GRPCTimeout.parse(raw) else {
        respondHTTP(
          stream, status: 400, title: "Bad Request",
          detail: "grpc-timeout \"\(String(decoding: raw, as: UTF8.self))\" is malformed")
        return
      }
      timeout = parsed
    }
    guard let requestEncoding = CompressionAlgorithm.forRequest(encoding: head.encoding) else {
      respondTrailersOnly(
        stream,
        GRPCStatus(
          .unimplemented,
          "grpc-encoding \"\(head.encoding ?? "")\" is not supported; this server accepts "
            + CompressionAlgorithm.acceptEncodingValue))
      return
    }
    stream.requestEncoding = requestEncoding
    if group.configuration.compressResponses,
      CompressionAlgorithm.gzip.isAccepted(by: head.acceptEncoding)
    {
      stream.responseEncoding = .gzip
    }

    let service: any GRPCService
    let serviceName: String
    let methodName: String
    let (route, methodMetrics) = group.routeCall(head.path)
    switch route {
    case .malformed:
      respondTrailersOnly(
        stream, GRPCStatus(.unimplemented, "malformed path \"\(head.pathText)\""))
      return
    case .unknownService(let name):
      respondTrailersOnly(stream, GRPCStatus(.unimplemented, "unknown service \(name)"))
      return
    case .unknownMethod(let name, let method):
      respondTrailersOnly(
        stream, GRPCStatus(.unimplemented, "unknown method \(method) for service \(name)"))
      return
    case .found(let found, let name, let method):
      service = found
      serviceName = name
      methodName = method
    }

    guard admitsCall() else {
      session.resetStream(streamID: stream.id, errorCode: NGHTTP2_REFUSED_STREAM.rawValue)
      outputReady()
      return
    }
    let deadline = timeout.map { scheduler.now + $0 }
    let call = ServerCall(
      service: serviceName, method: methodName, metadata: head.metadata, deadline: deadline,
      stream: stream, sink: self, inFlight: callsInFlight, metrics: methodMetrics)
    stream.call = call
    guard let handler = service.makeHandler(method: methodName, call: call) else {
      call.finish(
        GRPCStatus(.unimplemented, "unknown method \(methodName) for service \(serviceName)"))
      return
    }
    stream.handler = handler
    if let timeout {
      let streamID = stream.id
      stream.deadlineTimer = scheduler.schedule(after: timeout) { [back] in
        back.target?.deadlinePassed(streamID: streamID)
      }
    }
    if endStream { streamEnded(stream.id) }
  }

  private func deadlinePassed(streamID: Int32) {
    guard let stream = streams[streamID], let call = stream.call, stream.callIsLive else { return }
    stream.deadlineTimer = nil
    let status = GRPCStatus(.deadlineExceeded, "deadline exceeded")
    call.finish(status)
    stream.handler?.cancel(status)
  }

  func failCall(
    _ stream: ServerStream, _ status: GRPCStatus, resetCode: UInt32 = NGHTTP2_NO_ERROR.rawValue
  ) {
    guard let call = stream.call, stream.callIsLive else { return }
    stream.resetCodeAfterEnd = resetCode
    call.finish(status)
    stream.handler?.cancel(status)
  }

  // MARK: Responses

  /// The headers of almost every response, packed once.
  private static let plainResponseHeaders = PackedHeaders(
    [
      HeaderField(":status", "200"),
      HeaderField("content-type", "application/grpc"),
      HeaderField("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingValue),
    ], permanent: true)

  /// The trailers of almost every call, packed once.
  private static let okTrailers = PackedHeaders(
    [HeaderField("grpc-status", "0")], permanent: true)

  private func responseHeaders(_ stream: ServerStream, _ metadata: Metadata) -> PackedHeaders {
    if stream.responseEncoding == .identity, metadata.isEmpty { return Self.plainResponseHeaders }
    var headers = Self.plainResponseHeaders.fields
    if stream.responseEncoding != .identity {
      headers.append(HeaderField("grpc-encoding", stream.responseEncoding.rawValue))
    }
    append(metadata, to: &headers)
    return PackedHeaders(headers)
  }

  private func append(_ metadata: Metadata, to headers: inout [HeaderField]) {
    for (key, value) in metadata where !Metadata.isReserved(key) {
      switch value {
      case .text(let text): headers.append(HeaderField(key, text))
      case .binary(let bytes): headers.append(HeaderField(key, Base64.encode(bytes)))
      }
    }
  }

  private func trailerBlock(_ status: GRPCStatus, _ trailers: Metadata) -> PackedHeaders {
    if status.code == .ok, status.message.isEmpty, status.details == nil, trailers.isEmpty {
      return Self.okTrailers
    }
    return PackedHeaders(statusFields(status, trailers))
  }

  private func statusFields(_ status: GRPCStatus, _ trailers: Metadata) -> [HeaderField] {
    var fields = [HeaderField("grpc-status", String(status.code.rawValue))]
    if !status.message.isEmpty {
      fields.append(HeaderField("grpc-message", PercentEncoding.encode(status.message)))
    }
    if let details = status.details {
      fields.append(HeaderField("grpc-status-details-bin", Base64.encode(details)))
    }
    append(trailers, to: &fields)
    return fields
  }

  private func startResponse(_ stream: ServerStream, metadata: Metadata) {
    guard !stream.responseStarted else { return }
    stream.responseStarted = true
    session.submitResponseHeaders(streamID: stream.id, headers: responseHeaders(stream, metadata))
    // A handler that sends when asked (`onOutboundDrained`) is asked as
    // soon as the stream can take data.
    if stream.call?.onOutboundDrained != nil, session.attachData(streamID: stream.id) {
      stream.body = .attached
    }
    outputReady()
  }

  private func respondTrailersOnly(
    _ stream: ServerStream, _ status: GRPCStatus, trailers: Metadata = Metadata()
  ) {
    stream.responseStarted = true
    let headers = Self.plainResponseHeaders.fields + statusFields(status, trailers)
    session.submitFinalResponse(streamID: stream.id, headers: headers)
    outputReady()
  }

  /// A plain HTTP answer for requests that are not gRPC at all, with an
  /// RFC 9457 problem body; `allow` lists the methods a 405 would take.
  private func respondHTTP(
    _ stream: ServerStream, status: Int, title: String, detail: String, allow: String? = nil,
    headOnly: Bool = false
  ) {
    let body = JSONWriter.compact(ProblemDetails(status: status, detail: detail, title: title).json)
    respondPlain(
      stream, status: status, contentType: "application/problem+json", body: body,
      extraHeaders: allow.map { [HeaderField("allow", $0)] } ?? [], headOnly: headOnly)
  }

  /// `headOnly`: the answer to HEAD, the same headers with the body's
  /// length and no body, ending the stream with the HEADERS frame.
  private func respondPlain(
    _ stream: ServerStream, status: Int, contentType: String, body: String,
    extraHeaders: [HeaderField] = [], headOnly: Bool = false
  ) {
    stream.responseStarted = true
    var headers =
      [HeaderField(":status", String(status)), HeaderField("content-type", contentType)]
      + extraHeaders
    if headOnly {
      headers.append(HeaderField("content-length", String(body.utf8.count)))
      session.submitFinalResponse(streamID: stream.id, headers: headers)
      outputReady()
      return
    }
    borrowOutboundBufferIfNone(stream)
    stream.outbound.append(contentsOf: body.utf8)
    queuedResponseBytes += stream.pendingOutboundBytes
    stream.ending = .endStream
    session.submitResponseHeaders(streamID: stream.id, headers: PackedHeaders(headers))
    wake(stream)
  }

  /// Something was queued on a stream whose response has started: its
  /// body source is woken, or attached when it has none.
  func wake(_ stream: ServerStream) {
    switch stream.body {
    case .sleeping:
      stream.body = .attached
      session.resumeData(streamID: stream.id)
    case .detached:
      attachBody(stream)
    case .attached, .ended:
      break
    }
    outputReady()
  }

  private func borrowOutboundBufferIfNone(_ stream: ServerStream) {
    if stream.outbound.capacity == 0 { stream.outbound = group.borrowOutboundBuffer() }
  }

  /// Attaches a body source for what is queued. With no bytes left to
  /// send, trailers go out on their own rather than after an empty DATA
  /// frame.
  private func attachBody(_ stream: ServerStream) {
    if stream.pendingOutboundBytes == 0, case .trailers(let fields) = stream.ending {
      stream.body = .ended
      session.submitTrailers(streamID: stream.id, trailers: fields)
      return
    }
    guard stream.pendingOutboundBytes > 0 || stream.ending != nil else { return }
    if session.attachData(streamID: stream.id) { stream.body = .attached }
  }
}

// MARK: - ServerCallSink

extension GRPCServerConnection: ServerCallSink {
  // A call reaches these only while it is live: it is marked finished
  // before its stream leaves the table, and detached right after.

  func sendInitialMetadata(_ stream: ServerStream, metadata: Metadata) {
    startResponse(stream, metadata: metadata)
  }

  func send(_ stream: ServerStream, message: [UInt8], compress: Bool) {
    var payload = message
    var compressed = false
    if compress, stream.responseEncoding == .gzip, let deflated = deflater.deflate(message) {
      payload = deflated
      compressed = true
    }
    guard admitsResponse(of: 5 + payload.count, on: stream) else { return }
    startResponse(stream, metadata: Metadata())
    let before = stream.pendingOutboundBytes
    borrowOutboundBufferIfNone(stream)
    MessageFramer.append(payload, compressed: compressed, to: &stream.outbound)
    queuedResponseBytes += stream.pendingOutboundBytes - before
    wake(stream)
  }

  func send(_ stream: ServerStream, framed: consuming FramedMessage) {
    guard stream.responseEncoding == .identity else {
      return send(stream, message: framed.message, compress: true)
    }
    let size = framed.bytes.count
    guard admitsResponse(of: size, on: stream) else { return }
    startResponse(stream, metadata: Metadata())
    if stream.pendingOutboundBytes == 0 {
      var own = stream.adoptShared(framed)
      group.giveBack(outbound: &own)
    } else {
      stream.outbound.append(contentsOf: framed.bytes)
    }
    queuedResponseBytes += size
    wake(stream)
  }

  func send(
    _ stream: ServerStream, messageOfSize size: Int, compress: Bool,
    writingWith write: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    if compress, stream.responseEncoding != .identity {
      let message = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        write(UnsafeMutableRawBufferPointer(buffer))
        count = size
      }
      return send(stream, message: message, compress: compress)
    }
    guard admitsResponse(of: 5 + size, on: stream) else { return }
    startResponse(stream, metadata: Metadata())
    borrowOutboundBufferIfNone(stream)
    MessageFramer.append(size: size, to: &stream.outbound, writingWith: write)
    queuedResponseBytes += 5 + size
    wake(stream)
  }

  func finish(_ stream: ServerStream, status: GRPCStatus, trailers: Metadata) {
    stream.deadlineTimer?.cancel()
    stream.deadlineTimer = nil
    if stream.responseStarted {
      stream.ending = .trailers(trailerBlock(status, trailers))
      wake(stream)
    } else {
      respondTrailersOnly(stream, status, trailers: trailers)
    }
  }

  func execute(_ work: @escaping @Sendable () -> Void) {
    scheduler.execute(work)
  }

  var inLoop: Bool { scheduler.inLoop }

  var loopExecutor: any LoopExecutor { scheduler.loopExecutor }

  var now: ContinuousClock.Instant { scheduler.now }

  func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
    scheduler.schedule(after: delay, work)
  }

  func releaseOutboundBuffer(_ stream: ServerStream) {
    stream.releaseDrainedOutbound()
    if stream.pendingOutboundBytes > 0 { stream.releasesBufferWhenDrained = true }
  }
}

// MARK: - HTTP2SessionDelegate

extension GRPCServerConnection: HTTP2SessionDelegate {
  package func streamBegan(_ streamID: Int32) {
    streams[streamID] = ServerStream(
      id: streamID, maxMessageBytes: group.configuration.maxReceiveMessageBytes)
    if inboundBacklogLimited {
      session.setReceiveWindow(streamID: streamID, bytes: Self.limitedReceiveWindow)
    }
    idleSince = nil
    beginHeaderBlock(streamID)
  }

  @discardableResult
  private func beginHeaderBlock(_ streamID: Int32, trailers: Bool = false) -> IncomingHeaderBlock {
    let block = incomingBlock ?? group.borrowHeaderBlock()
    block.begin(streamID: streamID)
    if trailers { block.head.isTrailers = true }
    incomingBlock = block
    return block
  }

  /// Ends the block of `streamID`, if it is the one being received, after
  /// `use` has read its head. The block goes back to the group only then:
  /// its path buffer, no longer shared, is kept for the next block.
  private func endHeaderBlock(_ streamID: Int32, _ use: (borrowing RequestHead) -> Void) {
    guard let block = incomingBlock, block.streamID == streamID else { return use(RequestHead()) }
    incomingBlock = nil
    // Moved out and back rather than read in place: reading a class's
    // stored struct copies it, a retain and release per field.
    var head = RequestHead()
    swap(&head, &block.head)
    use(head)
    swap(&head, &block.head)
    group.giveBack(block)
  }

  /// Drops the block of `streamID` if it is still being received (the
  /// stream ended or closed inside it).
  private func abandonHeaderBlock(_ streamID: Int32) {
    guard let block = incomingBlock, block.streamID == streamID else { return }
    incomingBlock = nil
    group.giveBack(block)
  }

  package func streamHeader(
    _ streamID: Int32, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer
  ) -> Bool {
    // The block being received belongs to an open stream (`streamClosed`
    // drops it), so only a header without one needs the stream looked up.
    let reference: Unmanaged<IncomingHeaderBlock>
    if let current = incomingBlockReference,
      current._withUnsafeGuaranteedRef({ $0.streamID }) == streamID
    {
      reference = current
    } else {
      guard streams.contains(streamID) else { return true }
      // Another stream's block: the client's trailers, held to the same
      // rules and cap as request headers and then ignored.
      reference = .passUnretained(beginHeaderBlock(streamID, trailers: true))
    }
    // `incomingBlock` holds the block; adding a header calls nothing back.
    let limit = group.configuration.maxHeaderListBytes
    switch reference._withUnsafeGuaranteedRef({
      $0.head.add(name: name, value: value, limit: limit, memo: &credentialMemo)
    })
    {
    case .kept, .dropped:
      return true
    case .tooLarge:
      // The stream is reset with ENHANCE_YOUR_CALM, as grpc-core does
      // (stock clients report RESOURCE_EXHAUSTED).
      session.resetStream(streamID: streamID, errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    case .malformed:
      session.resetStream(streamID: streamID, errorCode: NGHTTP2_PROTOCOL_ERROR.rawValue)
    }
    // nghttp2 then skips the rest of the header block without reporting
    // it, and closes the stream once the reset is sent.
    return false
  }

  package func streamHeadersEnded(_ streamID: Int32, endStream: Bool) {
    guard let stream = streams[streamID] else { return }
    endHeaderBlock(streamID) { head in
      guard head.isCompleteRequest else { return rejectMalformed(stream) }
      if let declared = head.contentLength {
        // END_STREAM here means no content at all.
        guard !endStream || declared == 0 else { return rejectMalformed(stream) }
        stream.declaredBytesLeft = declared
      }
      dispatch(stream, head: head, endStream: endStream)
    }
  }

  package func streamTrailersEnded(_ streamID: Int32, endStream: Bool) {
    // Trailers end the request: a block that does not is malformed.
    guard endStream else {
      abandonHeaderBlock(streamID)
      if let stream = streams[streamID] { rejectMalformed(stream) }
      return
    }
    streamEnded(streamID)
  }

  /// Resets a stream whose request broke RFC 9113's rules (section 8.1.1);
  /// its call, if one started, ends when the stream closes.
  private func rejectMalformed(_ stream: ServerStream) {
    session.resetStream(streamID: stream.id, errorCode: NGHTTP2_PROTOCOL_ERROR.rawValue)
  }

  package func streamData(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let stream = streams[streamID] else { return }
    if stream.declaredBytesLeft >= 0 {
      guard bytes.count <= stream.declaredBytesLeft else { return rejectMalformed(stream) }
      stream.declaredBytesLeft -= Int64(bytes.count)
    }
    guard stream.callIsLive else {
      collectHTTPBody(stream, bytes)
      return
    }
    let before = stream.deframer.bufferedBytes
    defer { partialRequestBytes += stream.deframer.bufferedBytes - before }
    var delivered = 0
    defer {
      if delivered > 0 {
        stream.call?.countReceived(delivered)
        if stream.callIsLive { stream.handler?.receiveBatchEnd() }
      }
    }
    var input = bytes
    while stream.callIsLive {
      let found: MessageDeframer.Found?
      do {
        found = try stream.deframer.next(in: &input)
      } catch {
        failCall(stream, error)
        return
      }
      guard let found else { break }
      delivered += 1
      switch found {
      case .inChunk(compressed: false, let bytes):
        stream.handler?.receive(messageBytes: bytes)
      case .inChunk(compressed: true, let bytes):
        guard deliverCompressed(Array(bytes), to: stream) else { return }
      case .assembled(let message) where !message.compressed:
        stream.handler?.receive(message: message.bytes, compressed: false)
      case .assembled(let message):
        guard deliverCompressed(message.bytes, to: stream) else { return }
      }
    }
    // Only the start of an unfinished message stays buffered.
    _ = admitsRequestBytes(growth: stream.deframer.bufferedBytes - before)
  }

  /// False when the message could not be inflated and the call has failed.
  private func deliverCompressed(_ bytes: [UInt8], to stream: ServerStream) -> Bool {
    switch inflate(bytes, for: stream) {
    case .success(let inflated):
      stream.handler?.receive(message: inflated, compressed: true)
      return true
    case .failure(let status):
      failCall(stream, status)
      return false
    }
  }

  private func inflate(_ bytes: [UInt8], for stream: ServerStream) -> Result<[UInt8], GRPCStatus> {
    guard stream.requestEncoding == .gzip else {
      return .failure(
        GRPCStatus(
          .internal,
          "message has the compressed flag set but the request's grpc-encoding is "
            + "\"\(stream.requestEncoding.rawValue)\" or absent"))
    }
    return inflater.inflateMessage(bytes, limit: group.configuration.maxReceiveMessageBytes)
  }

  package func streamEnded(_ streamID: Int32) {
    abandonHeaderBlock(streamID)
    guard let stream = streams[streamID] else { return }
    // Less content than declared.
    guard stream.declaredBytesLeft <= 0 else { return rejectMalformed(stream) }
    guard stream.callIsLive else {
      httpRequestEnded(stream)
      return
    }
    if stream.deframer.bufferedBytes > 0 {
      failCall(
        stream,
        GRPCStatus(
          .internal,
          "request ended inside a message (\(stream.deframer.bufferedBytes) bytes left over)"))
      return
    }
    // The request is over: its receive buffer serves no more, and a
    // subscription may stay open for hours.
    stream.deframer.releaseBuffer()
    stream.handler?.receiveEnd()
  }

  package func streamClosed(_ streamID: Int32, errorCode: UInt32) {
    abandonHeaderBlock(streamID)
    guard let stream = streams.removeValue(forKey: streamID) else { return }
    queuedResponseBytes -= stream.pendingOutboundBytes
    partialRequestBytes -= stream.deframer.bufferedBytes
    if streams.isEmpty {
      becameIdle()
      sendFinalGoAway()
    }
    stream.deadlineTimer?.cancel()
    stream.call?.onOutboundDrained = nil
    if stream.callIsLive {
      stream.call?.markFinished()
      stream.handler?.cancel(GRPCStatus(.cancelled, "the client cancelled the call"))
    } else if stream.call == nil {
      // An HTTP face's exchange, told its stream is gone, and let go: it
      // holds the stream, so the two would keep each other alive.
      stream.handler?.cancel(GRPCStatus(.cancelled, "the stream closed"))
      stream.handler = nil
    }
    stream.call?.detach()
    if stream.outboundIsShared { _ = stream.discardOutbound() }
    group.giveBack(outbound: &stream.outbound)
  }

  package func streamOutbound(_ streamID: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> HTTP2OutboundChunk
  {
    // Borrowed: the table holds the stream until nghttp2 reports it closed,
    // which it does only after this callback returns.
    guard let stream = streams.unretained(streamID) else { return .end(count: 0, trailers: nil) }
    return stream._withUnsafeGuaranteedRef { streamOutbound($0, into: buffer) }
  }

  private func streamOutbound(_ stream: ServerStream, into buffer: UnsafeMutableRawBufferPointer)
    -> HTTP2OutboundChunk
  {
    var count = 0
    while true {
      if stream.pendingOutboundBytes == 0, stream.ending == nil {
        // Flow control wants more: a coalescing handler fills the buffer
        // now, with the latest state, rather than having queued it earlier.
        // Asked each time the stream runs dry, so the source detaches only
        // when the handler holds nothing back.
        guard stream.call?.holdsBack == true, let drained = stream.call?.onOutboundDrained else {
          // A streaming HTTP face (events) may have more once it drains.
          guard stream.call == nil, stream.handler != nil else { break }
          askHTTPStreamForMore(stream)
          if stream.pendingOutboundBytes == 0, stream.ending == nil { break }
          continue
        }
        drained()
        if stream.pendingOutboundBytes == 0, stream.ending == nil { break }
      }
      if count == buffer.count { return .bytes(count) }
      count += copyOutbound(
        of: stream, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
      if stream.pendingOutboundBytes == 0, let ending = stream.ending {
        stream.body = .ended
        switch ending {
        case .trailers(let fields): return .end(count: count, trailers: fields)
        case .endStream: return .end(count: count, trailers: nil)
        }
      }
    }
    if count == 0 {
      stream.body = .sleeping
      return .pending
    }
    // nghttp2_session_mem_send finishes the frame it packs (the source is
    // detached) before it returns, so a handler can attach anew whenever it
    // runs next.
    stream.body = .detached
    if stream.releasesBufferWhenDrained {
      stream.releasesBufferWhenDrained = false
      stream.releaseDrainedOutbound()
    }
    return .paused(count)
  }

  private func copyOutbound(of stream: ServerStream, into buffer: UnsafeMutableRawBufferPointer)
    -> Int
  {
    let count = min(buffer.count, stream.pendingOutboundBytes)
    guard count > 0 else { return 0 }
    stream.outbound.withUnsafeBytes { source in
      buffer.copyMemory(
        from: UnsafeRawBufferPointer(
          rebasing: source[stream.outboundOffset..<stream.outboundOffset + count]))
    }
    stream.outboundOffset += count
    queuedResponseBytes -= count
    dataSent(count)
    if stream.outboundOffset == stream.outbound.count {
      // A small buffer is kept for the next message; one a burst made
      // large (a subscription's snapshot) is not held for the stream's
      // whole life.
      stream.outboundSent(keepingCapacity: stream.outbound.capacity <= Self.keptOutboundCapacity)
    }
    return count
  }

  package func streamEndSent(_ streamID: Int32) {
    // The client of a call may still be sending; it is told to stop, as
    // stock gRPC servers do once the response is complete. NO_ERROR, as
    // grpc-core's own server sends after a status: a CANCEL right behind
    // the trailers races them in grpc-core clients, which then report
    // CANCELLED instead of the status (seen with DEADLINE_EXCEEDED under
    // load). Any other answer leaves the request to finish: the stream
    // stays half-closed, and what the client still sends on it is held to
    // the same rules (a reset stream would drop it unread).
    guard let stream = streams[streamID], stream.call != nil,
      !session.isRemoteClosed(streamID: streamID)
    else {
      return
    }
    session.resetStream(streamID: streamID, errorCode: stream.resetCodeAfterEnd)
  }

  package func headersSent() {
    pingPolicy.responseSent()
  }

  /// Response DATA handed to nghttp2, which frames it in the same drain.
  private func dataSent(_ count: Int) {
    pingPolicy.responseSent()
    stall.dataBytesSent += count
  }

  package func pingReceived() {
    let idle = streams.isEmpty
    if pingPolicy.pingReceived(at: scheduler.now, idle: idle) {
      session.terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue, reason: "too_many_pings")
      logRefusal("too_many_pings")
      outputReady()
    }
  }

  package func pingAcknowledged(payload: UInt64) {
    pingAnswered(payload: payload)
  }
}
