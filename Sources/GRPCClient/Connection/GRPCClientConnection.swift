import CNGHTTP2
import GRPCCore
import HTTP2

/// One HTTP/2 connection carrying gRPC calls from the client side, as a
/// state machine: calls start with `makeCall`, bytes from the server go in
/// through `receive`, bytes for the server come out of `drainOutput`. No
/// I/O happens here; `GRPCChannel` (or a test) moves the bytes.
///
/// Everything runs on one thread, the one that drives the connection.
/// Any number of calls may be open at once; nghttp2 holds back new streams
/// beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS until others end.
public final class GRPCClientConnection {
  private let authority: String
  private let configuration: ClientConfiguration
  private let scheduler: CallScheduler
  private let session: NGHTTP2Session
  private var streams = StreamTable<ClientStream>()
  /// Set once the connection is gone; later calls fail with it at once.
  private var lostStatus: GRPCStatus?
  /// Called when there is output to drain; the owner flushes once per turn.
  private let outputReady: () -> Void
  /// What calls and timers hold (see `BackReference`).
  private let back = BackReference<GRPCClientConnection>()
  /// zlib streams, made on first use: only with `compression` gzip.
  private lazy var deflater = GzipDeflater()
  private lazy var inflater = GzipInflater()

  /// `authority` is the `:authority` of every request, normally the
  /// server's `host:port` (`SocketAddress.authority`).
  public init(
    authority: String, configuration: ClientConfiguration = ClientConfiguration(),
    scheduler: CallScheduler, outputReady: @escaping () -> Void
  ) {
    self.authority = authority
    self.configuration = configuration
    self.scheduler = scheduler
    self.outputReady = outputReady
    var settings = NGHTTP2Session.Settings()
    settings.initialWindowSize = configuration.initialWindowSize
    settings.connectionWindowSize = configuration.connectionWindowSize
    settings.maxHeaderListSize = UInt32(configuration.maxHeaderListBytes)
    // We never accept streams from the server.
    settings.maxConcurrentStreams = 0
    self.session = NGHTTP2Session(role: .client, settings: settings)
    session.attach(delegate: self)
    back.target = self
    // The connection preface and SETTINGS go out first.
    outputReady()
  }

  deinit {
    back.target = nil
  }

  /// Feeds bytes from the server. False when the connection is beyond
  /// saving: drain the output (a GOAWAY may be queued), then close it and
  /// call `connectionLost`.
  public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    do {
      try session.receive(bytes)
      return true
    } catch {
      return false
    }
  }

  /// Appends everything ready to send. False on a fatal session error.
  public func drainOutput(into buffer: inout [UInt8]) -> Bool {
    do {
      try session.drainOutput(into: &buffer)
      return true
    } catch {
      return false
    }
  }

  /// False once both sides are done with the connection (after a GOAWAY
  /// and the last stream).
  public var isAlive: Bool { lostStatus == nil && session.isAlive }

  /// Calls started and not yet finished.
  public var activeCallCount: Int { streams.values.count { !$0.call.isFinished } }

  /// Starts a call: request headers now, request messages with
  /// `ClientCall.send`, END_STREAM with `closeSend`. With a `timeout` the
  /// server is told (`grpc-timeout`) and the call ends locally with
  /// DEADLINE_EXCEEDED when it runs out. `callProtocol` is gRPC unless the
  /// call is to speak gRPC-Web or Connect streaming to the same server.
  /// When the call cannot start (the connection is gone) the handler
  /// finishes on a later turn, never inside this method.
  public func makeCall(
    path: String, callProtocol: CallProtocol = .grpc, metadata: Metadata = Metadata(),
    timeout: Duration? = nil, handler: any ClientCallHandler
  ) -> ClientCall {
    if let lostStatus {
      return failedCall(path: path, handler: handler, status: lostStatus)
    }
    var headers = [
      HeaderField(":method", "POST"),
      HeaderField(":scheme", configuration.tls == nil ? "http" : "https"),
      HeaderField(":path", path), HeaderField(":authority", authority),
      HeaderField("content-type", callProtocol.contentType),
      HeaderField("user-agent", configuration.userAgent),
    ]
    callProtocol.appendRequestFields(
      to: &headers, timeout: timeout, compression: configuration.compression)
    for (key, value) in metadata where !Metadata.isReserved(key) {
      switch value {
      case .text(let text): headers.append(HeaderField(key, text))
      case .binary(let bytes): headers.append(HeaderField(key, Base64.encode(bytes)))
      }
    }
    guard let streamID = session.submitRequest(headers: headers) else {
      return failedCall(
        path: path, handler: handler,
        status: GRPCStatus(.unavailable, "the connection cannot open another stream"))
    }
    let call = ClientCall(path: path, streamID: streamID, connection: back)
    let stream = ClientStream(
      id: streamID, call: call, callProtocol: callProtocol, handler: handler,
      maxMessageBytes: configuration.maxReceiveMessageBytes)
    streams[streamID] = stream
    if let timeout {
      stream.deadlineTimer = scheduler.schedule(after: timeout) { [back] in
        guard let self = back.target, let stream = self.streams[streamID] else { return }
        stream.deadlineTimer = nil
        self.fail(stream, GRPCStatus(.deadlineExceeded, "deadline of \(timeout) exceeded"))
      }
    }
    outputReady()
    return call
  }

  /// A unary call: one request, one response. `completion` gets the whole
  /// response; `ClientResponse.singleMessage()` checks it.
  @discardableResult
  public func unary(
    path: String, request: [UInt8], metadata: Metadata = Metadata(), timeout: Duration? = nil,
    completion: @escaping (ClientResponse) -> Void
  ) -> ClientCall {
    let call = makeCall(
      path: path, metadata: metadata, timeout: timeout,
      handler: ResponseCollector(completion: completion))
    call.send(request)
    call.closeSend()
    return call
  }

  /// A server-streaming call: one request, `onMessage` for each response
  /// message as it arrives, `completion` with the status and metadata.
  @discardableResult
  public func serverStreaming(
    path: String, request: [UInt8], metadata: Metadata = Metadata(), timeout: Duration? = nil,
    onMessage: @escaping ([UInt8]) -> Void, completion: @escaping (ClientResponse) -> Void
  ) -> ClientCall {
    let call = makeCall(
      path: path, metadata: metadata, timeout: timeout,
      handler: ResponseCollector(onMessage: onMessage, completion: completion))
    call.send(request)
    call.closeSend()
    return call
  }

  /// The transport is gone: every live call finishes with `status`
  /// (UNAVAILABLE by default), and later calls fail the same way.
  public func connectionLost(_ status: GRPCStatus = GRPCStatus(.unavailable, "connection lost")) {
    if lostStatus == nil { lostStatus = status }
    let live = streams.values.sorted { $0.id < $1.id }
    streams.removeAll()
    for stream in live { finish(stream, status, trailers: Metadata()) }
  }

  /// Tells the server no more calls will start (GOAWAY); calls in flight
  /// go on, and `isAlive` turns false once they are done.
  public func shutdown() {
    session.goAway(errorCode: NGHTTP2_NO_ERROR.rawValue)
    outputReady()
  }

  // MARK: Calls

  func send(_ message: [UInt8], on call: ClientCall) {
    guard let stream = streams[call.streamID], !stream.sendClosed else { return }
    // Each message says whether it is compressed: one zlib could not
    // compress goes as it is.
    if configuration.compression == .gzip, let compressed = deflater.deflate(message) {
      MessageFramer.append(compressed, compressed: true, to: &stream.outbound)
    } else {
      MessageFramer.append(message, to: &stream.outbound)
    }
    wake(stream)
  }

  func send(framedMessages: [UInt8], on call: ClientCall) {
    guard let stream = streams[call.streamID], !stream.sendClosed else { return }
    // Uncompressed messages are valid whatever the call's encoding: each
    // says in its own prefix whether it is compressed.
    if stream.pendingOutboundBytes == 0 {
      stream.outbound = framedMessages
      stream.outboundOffset = 0
    } else {
      stream.outbound.append(contentsOf: framedMessages)
    }
    wake(stream)
  }

  func closeSend(on call: ClientCall) {
    guard let stream = streams[call.streamID], !stream.sendClosed else { return }
    stream.sendClosed = true
    wake(stream)
  }

  func cancel(_ call: ClientCall, _ status: GRPCStatus) {
    guard let stream = streams[call.streamID] else { return }
    fail(stream, status)
  }

  func pendingOutboundBytes(of call: ClientCall) -> Int {
    streams[call.streamID]?.pendingOutboundBytes ?? 0
  }

  private func failedCall(
    path: String, handler: any ClientCallHandler, status: GRPCStatus
  ) -> ClientCall {
    let call = ClientCall(path: path, streamID: 0, connection: BackReference())
    _ = scheduler.schedule(after: .zero) {
      guard !call.isFinished else { return }
      call.isFinished = true
      handler.finished(status: status, trailers: Metadata())
    }
    return call
  }

  /// Ends a call from our side: the stream is reset so the server stops.
  private func fail(_ stream: ClientStream, _ status: GRPCStatus) {
    guard !stream.call.isFinished else { return }
    session.resetStream(streamID: stream.id, errorCode: NGHTTP2_CANCEL.rawValue)
    outputReady()
    finish(stream, status, trailers: Metadata())
  }

  /// Tells the handler, once, and forgets it.
  private func finish(_ stream: ClientStream, _ status: GRPCStatus, trailers: Metadata) {
    guard !stream.call.isFinished else { return }
    stream.call.isFinished = true
    stream.deadlineTimer?.cancel()
    stream.deadlineTimer = nil
    stream.outbound = []
    stream.outboundOffset = 0
    let handler = stream.handler
    stream.handler = nil
    handler?.finished(status: status, trailers: trailers)
  }

  /// The server answered in full; if we were still sending, the rest is
  /// not wanted, so the stream is reset as stock clients do.
  private func finishFromServer(_ stream: ClientStream, _ status: GRPCStatus, trailers: Metadata) {
    if !stream.sendClosed || stream.pendingOutboundBytes > 0 {
      session.resetStream(streamID: stream.id, errorCode: NGHTTP2_CANCEL.rawValue)
      outputReady()
    }
    finish(stream, status, trailers: trailers)
  }

  private func wake(_ stream: ClientStream) {
    if stream.dataSleeping {
      stream.dataSleeping = false
      session.resumeData(streamID: stream.id)
    }
    outputReady()
  }
}

// MARK: - HTTP2SessionDelegate

extension GRPCClientConnection: HTTP2SessionDelegate {
  package func streamBegan(_ streamID: Int32) {
    // A client session reports no peer-opened streams (push is disabled).
  }

  package func streamHeader(
    _ streamID: Int32, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer
  ) -> Bool {
    guard let stream = streams[streamID], !stream.call.isFinished else { return true }
    let limit = configuration.maxHeaderListBytes
    let accepted =
      stream.headersDone
      ? stream.trailers.add(name: name, value: value, limit: limit)
      : stream.headers.add(name: name, value: value, limit: limit)
    if !accepted { stream.headerOverflow = true }
    return accepted
  }

  package func streamHeadersEnded(_ streamID: Int32, endStream: Bool) {
    guard let stream = streams[streamID], !stream.call.isFinished else { return }
    stream.headersDone = true
    if let problem = stream.headers.headerProblem(for: stream.callProtocol) {
      // Not a gRPC response (a proxy's error page, a 404): its body is not
      // worth reading.
      if endStream { finish(stream, problem, trailers: Metadata()) } else { fail(stream, problem) }
      return
    }
    if endStream, stream.callProtocol == .connectStreaming {
      finish(
        stream, GRPCStatus(.internal, "the response ended without its end-of-stream message"),
        trailers: Metadata())
      return
    }
    if endStream {
      // Trailers-only (gRPC-Web's too): the status rides in the headers.
      finishFromServer(stream, stream.headers.status, trailers: stream.headers.metadata)
      return
    }
    stream.handler?.received(headers: stream.headers.metadata)
  }

  package func streamData(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let stream = streams[streamID], !stream.call.isFinished else { return }
    guard stream.endFrame == nil else {
      // Whatever follows the last frame's start is the rest of it (or a
      // protocol error that reading it at END_STREAM reports).
      return collectEndFrame(bytes, on: stream)
    }
    var input = bytes
    while !stream.call.isFinished {
      if stream.endFlag != 0, stream.deframer.bufferedBytes == 0, let flags = input.first,
        flags & stream.endFlag != 0
      {
        return collectEndFrame(input, on: stream)
      }
      let found: MessageDeframer.Found?
      do {
        found = try stream.deframer.next(in: &input)
      } catch {
        fail(stream, error)
        return
      }
      switch found {
      case nil:
        return
      case .inChunk(compressed: false, let bytes):
        stream.handler?.received(messageBytes: bytes)
      case .assembled(let message) where !message.compressed:
        stream.handler?.received(message: message.bytes)
      case .inChunk(compressed: true, let bytes):
        guard deliverCompressed(Array(bytes), on: stream) else { return }
      case .assembled(let message):
        guard deliverCompressed(message.bytes, on: stream) else { return }
      }
    }
  }

  /// gRPC-Web's trailer frame or Connect's end-of-stream message, as it
  /// arrives; bounded like a message.
  private func collectEndFrame(_ bytes: UnsafeRawBufferPointer, on stream: ClientStream) {
    let collected = (stream.endFrame?.count ?? 0) + bytes.count
    guard collected <= configuration.maxReceiveMessageBytes + 5 else {
      fail(
        stream,
        GRPCStatus(
          .resourceExhausted,
          "the response's last frame exceeds the limit of "
            + "\(configuration.maxReceiveMessageBytes) bytes"))
      return
    }
    stream.endFrame = (stream.endFrame ?? []) + bytes
  }

  /// A compressed response message, inflated when the response's
  /// `grpc-encoding` is the one we accept; otherwise, or when it does not
  /// inflate within the message limit, the call fails. False then.
  private func deliverCompressed(_ bytes: [UInt8], on stream: ClientStream) -> Bool {
    guard configuration.compression == .gzip,
      stream.headers.value(stream.callProtocol.messageEncodingField) == "gzip"
    else {
      fail(stream, GRPCStatus(.internal, "compressed response message, none was negotiated"))
      return false
    }
    switch inflater.inflateMessage(bytes, limit: configuration.maxReceiveMessageBytes) {
    case .success(let message):
      stream.handler?.received(message: message)
      return true
    case .failure(let status):
      fail(stream, status)
      return false
    }
  }

  package func streamEnded(_ streamID: Int32) {
    guard let stream = streams[streamID], !stream.call.isFinished else { return }
    if stream.deframer.bufferedBytes > 0 {
      finishFromServer(
        stream,
        GRPCStatus(
          .internal,
          "response ended inside a message (\(stream.deframer.bufferedBytes) bytes left over)"),
        trailers: Metadata())
      return
    }
    if let endFrame = stream.endFrame {
      let (status, trailers) = stream.callProtocol.status(
        fromEndFrame: endFrame, headerLimit: configuration.maxHeaderListBytes)
      finishFromServer(stream, status, trailers: trailers)
      return
    }
    if stream.endFlag != 0 {
      finishFromServer(
        stream, GRPCStatus(.internal, "the response ended without its last frame"),
        trailers: Metadata())
      return
    }
    guard stream.headersDone, !stream.trailers.fields.isEmpty else {
      finishFromServer(
        stream, GRPCStatus(.internal, "the response ended without trailers"), trailers: Metadata())
      return
    }
    finishFromServer(stream, stream.trailers.status, trailers: stream.trailers.metadata)
  }

  package func streamClosed(_ streamID: Int32, errorCode: UInt32) {
    guard let stream = streams.removeValue(forKey: streamID) else { return }
    guard !stream.call.isFinished else { return }
    let status: GRPCStatus
    if stream.headerOverflow {
      status = GRPCStatus(
        .resourceExhausted,
        "response header list over the limit of \(configuration.maxHeaderListBytes) bytes")
    } else {
      switch errorCode {
      case NGHTTP2_REFUSED_STREAM.rawValue:
        status = GRPCStatus(.unavailable, "the server refused the stream before processing it")
      case NGHTTP2_CANCEL.rawValue:
        status = GRPCStatus(.cancelled, "the server cancelled the stream")
      case NGHTTP2_ENHANCE_YOUR_CALM.rawValue:
        status = GRPCStatus(.resourceExhausted, "the server asked to slow down (ENHANCE_YOUR_CALM)")
      case NGHTTP2_NO_ERROR.rawValue:
        status = GRPCStatus(.internal, "the stream closed without a status")
      default:
        status = GRPCStatus(.internal, "the stream was reset with HTTP/2 error code \(errorCode)")
      }
    }
    finish(stream, status, trailers: Metadata())
  }

  package func streamOutbound(_ streamID: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> HTTP2OutboundChunk
  {
    guard let stream = streams[streamID], !stream.call.isFinished else {
      return .end(count: 0, trailers: nil)
    }
    if stream.pendingOutboundBytes == 0, !stream.sendClosed {
      // Flow control wants more: a producer with its own backlog fills the
      // buffer now.
      stream.handler?.readyForMoreMessages()
      guard !stream.call.isFinished else { return .end(count: 0, trailers: nil) }
    }
    let count = min(buffer.count, stream.pendingOutboundBytes)
    if count > 0 {
      stream.outbound.withUnsafeBytes { source in
        buffer.copyMemory(
          from: UnsafeRawBufferPointer(
            rebasing: source[stream.outboundOffset..<stream.outboundOffset + count]))
      }
      stream.outboundOffset += count
      if stream.outboundOffset == stream.outbound.count {
        stream.outbound.removeAll(keepingCapacity: true)
        stream.outboundOffset = 0
      }
    }
    if stream.pendingOutboundBytes == 0, stream.sendClosed {
      return .end(count: count, trailers: nil)
    }
    if count > 0 { return .bytes(count) }
    stream.dataSleeping = true
    return .pending
  }

  package func streamEndSent(_ streamID: Int32) {
    // Our half-close went out; the response decides when the call ends.
  }
}
