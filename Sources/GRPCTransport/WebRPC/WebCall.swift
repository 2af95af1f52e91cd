import GRPCCore

/// One gRPC-Web or Connect call on an `HTTPExchange`: the sink behind its
/// `ServerCall`, so the service's own handler runs it exactly as it runs a
/// gRPC call, and what the handler sends is framed for the web protocol.
///
/// A unary call's answer is sent whole when the status comes; a streaming
/// call starts its body with the first message (or its initial metadata)
/// and writes each message as it comes, while the exchange keeps up: past
/// `exchangeHighWater` bytes the rest waits in `record`, whose count is what
/// the call reports as pending, so a subscription coalesces for a slow web
/// reader as it does for a slow HTTP/2 one. Lives on the exchange's loop.
final class WebCall: ServerCallSink {
  private enum Phase {
    /// Nothing sent yet: a status now makes a whole response.
    case awaitingResponse
    /// The head is out; messages follow in the body.
    case streaming
    case finished
  }

  private let exchange: any HTTPExchange
  private let framing: WebResponseFraming
  private let streamsResponse: Bool
  private var phase = Phase.awaitingResponse
  private var responseMetadata = Metadata()
  /// A unary call's response message, framed, until its status comes.
  private var unaryBody: [UInt8] = []
  /// A call needs a stream record of its own: it carries the bytes the
  /// exchange has not been given yet (see the type's comment). It is never
  /// in a session's stream table.
  let record: ServerStream
  private(set) var call: ServerCall?
  var handler: RPCHandler?
  private var deadlineTimer: ScheduledWork?
  private var deflater: GzipDeflater?

  /// Bytes the exchange may hold before further output waits in `record`.
  private static let exchangeHighWater = 64 << 10

  init(
    exchange: any HTTPExchange, framing: WebResponseFraming, streamsResponse: Bool,
    maxMessageBytes: Int
  ) {
    self.exchange = exchange
    self.framing = framing
    self.streamsResponse = streamsResponse
    self.record = ServerStream(id: 0, maxMessageBytes: maxMessageBytes)
  }

  /// Starts the call on `service`'s handler and hands it the request's
  /// messages; false when the service does not list the method.
  func run(_ target: WebMethod, metadata: Metadata, deadline: Duration?, messages: [[UInt8]]) {
    let serviceName = target.serviceName
    let method = target.name
    // Counted in the same gRPC series as a native call of the method: the
    // same handler runs it, and `http_requests_total` tells the faces apart.
    let call = ServerCall(
      service: serviceName, method: method, metadata: metadata,
      deadline: deadline.map { exchange.scheduler.now + $0 }, stream: record, sink: self,
      metrics: exchange.metrics?.method(path: target.path, service: serviceName, method: method))
    guard let handler = target.service.makeHandler(method: method, call: call) else {
      call.finish(GRPCStatus(.unimplemented, "unknown method \(method) for service \(serviceName)"))
      return
    }
    call.countReceived(messages.count)
    self.call = call
    self.handler = handler
    exchange.onCancel = { [weak self] in self?.exchangeCancelled() }
    // A unary answer goes out whole: only a stream waits for the socket.
    if streamsResponse {
      exchange.onOutboundDrained = { [weak self] in self?.exchangeDrained() }
    }
    if let deadline {
      deadlineTimer = exchange.scheduler.schedule(after: deadline) { [weak self] in
        self?.deadlinePassed()
      }
    }
    for message in messages {
      guard phase != .finished else { break }
      handler.receive(message: message, compressed: false)
    }
    if phase != .finished {
      handler.receiveBatchEnd()
      handler.receiveEnd()
    }
  }

  // MARK: ServerCallSink

  func sendInitialMetadata(_ stream: ServerStream, metadata: Metadata) {
    for (key, value) in metadata { responseMetadata.add(key, value) }
    // A stream's head goes out now, so a browser sees the call is live
    // before the first event.
    if streamsResponse, phase == .awaitingResponse { startStreaming() }
  }

  func send(_ stream: ServerStream, message: [UInt8], compress: Bool) {
    guard phase != .finished else { return }
    let bytes: [UInt8]
    do throws(GRPCStatus) {
      bytes = try framing.encode(message: message, deflater: sharedDeflater)
    } catch {
      return failFromHandlerOutput(error)
    }
    deliver(bytes)
  }

  func send(_ stream: ServerStream, framed: consuming FramedMessage) {
    // gRPC-Web and Connect's binary envelopes are gRPC's frames: a message
    // framed once for many gRPC subscribers serves these as it is.
    if framing.compression == .identity, !framing.isText,
      framing.protocolKind == .grpcWeb(text: false)
        || framing.protocolKind == .connectStreaming(.proto)
    {
      guard phase != .finished else { return }
      deliver(framed.bytes)
    } else {
      send(stream, message: framed.message, compress: true)
    }
  }

  func send(
    _ stream: ServerStream, messageOfSize size: Int, compress: Bool,
    writingWith write: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    let message = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      write(UnsafeMutableRawBufferPointer(buffer))
      count = size
    }
    send(stream, message: message, compress: compress)
  }

  func finish(_ stream: ServerStream, status: GRPCStatus, trailers: Metadata) {
    guard phase != .finished else { return }
    switch phase {
    case .awaitingResponse:
      phase = .finished
      exchange.respond(
        framing.wholeResponse(
          status: status, metadata: responseMetadata, trailers: trailers, body: unaryBody,
          deflater: sharedDeflater))
    case .streaming:
      phase = .finished
      // Whatever waited goes first; the exchange holds it from here on.
      if record.pendingOutboundBytes > 0 { write(record.outbound) }
      record.outbound = []
      write(framing.end(status, trailers: trailers))
      exchange.finish()
    case .finished:
      break
    }
    release()
  }

  func execute(_ work: @escaping @Sendable () -> Void) { exchange.scheduler.execute(work) }
  var inLoop: Bool { exchange.scheduler.inLoop }
  var loopExecutor: any LoopExecutor { exchange.scheduler.loopExecutor }
  var now: ContinuousClock.Instant { exchange.scheduler.now }
  var peer: String? { exchange.peer }
  var credentialMemo: CredentialMemo? { exchange.credentialMemo }

  func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
    exchange.scheduler.schedule(after: delay, work)
  }

  func releaseOutboundBuffer(_ stream: ServerStream) {}

  // MARK: Output

  private func deliver(_ bytes: [UInt8]) {
    guard streamsResponse else {
      unaryBody += bytes
      return
    }
    if phase == .awaitingResponse { startStreaming() }
    if record.pendingOutboundBytes == 0, exchange.pendingOutboundBytes < Self.exchangeHighWater {
      write(bytes)
    } else {
      record.outbound += bytes
    }
  }

  private func startStreaming() {
    phase = .streaming
    exchange.startStream(status: 200, headers: framing.headFields(metadata: responseMetadata))
  }

  /// Text mode encodes each write on its own, padding included, as
  /// PROTOCOL-WEB allows.
  private func write(_ bytes: [UInt8]) {
    exchange.write(framing.isText ? Base64.encodedBytes(bytes, padded: true) : bytes)
  }

  private func exchangeDrained() {
    guard phase == .streaming else { return }
    if record.pendingOutboundBytes > 0 {
      write(record.outbound)
      record.outbound.removeAll(keepingCapacity: true)
    }
    call?.onOutboundDrained?()
  }

  private var sharedDeflater: () -> GzipDeflater {
    {
      if let deflater = self.deflater { return deflater }
      let made = GzipDeflater()
      self.deflater = made
      return made
    }
  }

  // MARK: Ends the handler did not choose

  /// A response message that cannot be written in this protocol (JSON for
  /// a field the mapping refuses): the call ends with that status.
  private func failFromHandlerOutput(_ status: GRPCStatus) {
    let handler = self.handler
    call?.finish(status)
    handler?.cancel(status)
  }

  private func deadlinePassed() {
    deadlineTimer = nil
    guard phase != .finished, let call else { return }
    let status = GRPCStatus(.deadlineExceeded, "deadline exceeded")
    let handler = self.handler
    call.finish(status)
    handler?.cancel(status)
  }

  private func exchangeCancelled() {
    guard phase != .finished else { return }
    if phase == .streaming {
      // Only a stopping server's exchange still takes bytes now (one whose
      // peer left takes none): the client gets a status it can act on, as
      // a gRPC client does, rather than a body cut short.
      if record.pendingOutboundBytes > 0 { write(record.outbound) }
      record.outbound = []
      write(
        framing.end(GRPCStatus(.unavailable, "the server is shutting down"), trailers: Metadata()))
    }
    phase = .finished
    let handler = self.handler
    release()
    handler?.cancel(GRPCStatus(.cancelled, "the client went away"))
  }

  /// Breaks the call ⇄ handler ⇄ sink cycle and lets go of the exchange's
  /// callbacks.
  private func release() {
    deadlineTimer?.cancel()
    deadlineTimer = nil
    call?.detach()
    call = nil
    handler = nil
    exchange.onCancel = nil
    exchange.onOutboundDrained = nil
  }
}
