import GRPCCore
import GaugeMetrics

/// The handler's side of a stream: what the call asked for, and the way
/// back. Bound to the event loop of its connection; every method must be
/// called on that loop (hop with `execute` from other threads).
// @unchecked Sendable: a call is handed to other threads only so that they can
// hop back with `execute`; every other member is used on the owning loop.
public final class ServerCall: @unchecked Sendable {
  public let service: String
  public let method: String
  public let metadata: Metadata
  /// When the client's `grpc-timeout` runs out, if it sent one.
  public let deadline: ContinuousClock.Instant?
  // Declared here, after the deadline's tag byte, where it fills what
  // would be padding: one allocation size class less per open call.
  public private(set) var isFinished = false
  /// Whether the handler has output waiting for `onOutboundDrained`. One
  /// that coalesces clears it when it holds nothing back, and the
  /// connection then skips the call, which was otherwise made once per
  /// message a subscription sends. Stays true for handlers that never set
  /// it, which are asked every time.
  public var holdsBack = true

  /// Called on the loop when the stream has sent everything queued and
  /// HTTP/2 flow control would take more: the moment for a producer that
  /// coalesces (a subscription) to send its next batch.
  public var onOutboundDrained: (() -> Void)?

  /// The connection, held strongly while the stream lives (a weak
  /// reference cost an atomic load on every send and pushed the connection
  /// onto slow reference counting); the connection lets go through
  /// `detach()` when the stream closes. Loop only.
  private var sink: ServerCallSink?
  /// The connection's state for this call's stream, handed to the sink so
  /// that a send needs no lookup by id (several per event on the fan-out
  /// path). Let go with the sink. Loop only.
  private var stream: ServerStream? {
    didSet { streamReference = stream.map { .passUnretained($0) } }
  }
  /// `stream`, borrowed on the paths every message takes, where reading
  /// the `var` was a retain and a release. `stream` holds it, and so does
  /// the connection's stream table until the stream closes, which happens
  /// in nghttp2's callbacks, never inside a send.
  private var streamReference: Unmanaged<ServerStream>?
  /// Fixed at creation, so other threads can hop to the loop without
  /// touching `sink`.
  private let executor: any LoopExecutor
  private let inFlight: CallsInFlight?
  /// The method's counters on this loop, when the server keeps metrics.
  private let metrics: GRPCMethodMetrics?
  /// When the call began, in monotonic nanoseconds, for
  /// `grpc_server_handling_seconds`: read from the clock itself, since the
  /// loop's cached time would put every unary call answered within one
  /// turn at zero. 0 without metrics.
  private let startedAt: UInt64

  init(
    service: String, method: String, metadata: Metadata, deadline: ContinuousClock.Instant?,
    stream: ServerStream, sink: ServerCallSink, inFlight: CallsInFlight? = nil,
    metrics: GRPCMethodMetrics? = nil
  ) {
    self.service = service
    self.method = method
    self.metadata = metadata
    self.deadline = deadline
    self.stream = stream
    self.streamReference = .passUnretained(stream)
    self.sink = sink
    self.executor = sink.loopExecutor
    self.inFlight = inFlight
    self.metrics = metrics
    self.startedAt = metrics == nil ? 0 : NanosecondClock.now()
    inFlight?.enter()
    metrics?.started &+= 1
  }

  deinit {
    inFlight?.leave()
  }

  /// Sends response headers with custom metadata; otherwise they go out with
  /// the first message or the status.
  public func sendInitialMetadata(_ metadata: Metadata) {
    guard !isFinished else { return }
    guard let stream else { return }
    sink?.sendInitialMetadata(stream, metadata: metadata)
  }

  /// Queues a response message, compressed when the call negotiated a
  /// response encoding, unless `compress` is false.
  public func send(message: [UInt8], compress: Bool = true) {
    guard !isFinished else { return }
    guard let stream else { return }
    metrics?.sent &+= 1
    sink?.send(stream, message: message, compress: compress)
  }

  /// Queues a message framed once for many calls. Sent as it is when the
  /// call's responses are not compressed; otherwise compressed as
  /// `send(message:)` would.
  public func send(framed: consuming FramedMessage) {
    guard !isFinished, let streamReference, let sink else { return }
    metrics?.sent &+= 1
    // Moved into the closure through an Optional: a consumed parameter
    // cannot be captured.
    var message = Optional(framed)
    streamReference._withUnsafeGuaranteedRef { stream in
      guard let framed = message.take() else { return }
      sink.send(stream, framed: framed)
    }
  }

  /// Queues a response message of `size` bytes that `write` lays out in
  /// place, in the stream's own buffer: the answer of a unary call needs
  /// no array of its own. Compressed as `send(message:)` would, through
  /// an array then.
  public func send(
    messageOfSize size: Int, compress: Bool = true,
    writingWith write: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    guard !isFinished, let streamReference, let sink else { return }
    metrics?.sent &+= 1
    streamReference._withUnsafeGuaranteedRef {
      sink.send($0, messageOfSize: size, compress: compress, writingWith: write)
    }
  }

  /// Response bytes queued on this stream that HTTP/2 has not sent yet
  /// (held back by flow control or not yet written).
  public var pendingOutboundBytes: Int {
    // Read from the stream itself: asked before every event of every
    // subscription, where a call through the sink cost a witness call and
    // two retains.
    streamReference?._withUnsafeGuaranteedRef { $0.pendingOutboundBytes } ?? 0
  }

  /// The stream expects a quiet spell (a subscription past its snapshot):
  /// its outbound buffer is given back once what it holds is sent, instead
  /// of being kept for the next message. The next message allocates anew.
  public func releaseOutboundBuffer() {
    guard !isFinished else { return }
    guard let stream else { return }
    sink?.releaseOutboundBuffer(stream)
  }

  /// Ends the call with a status and optional trailing metadata. Later
  /// calls are ignored.
  public func finish(_ status: GRPCStatus, trailers: Metadata = Metadata()) {
    guard !isFinished else { return }
    isFinished = true
    onOutboundDrained = nil
    countHandled(status.code)
    guard let stream else { return }
    sink?.finish(stream, status: status, trailers: trailers)
  }

  /// The counters of the loop this call runs on, when the server keeps
  /// metrics: for what a handler counts beyond the call itself.
  public var loopMetrics: LoopMetrics? { metrics?.loop }

  /// The client's address (`HOST:PORT`, or `unix:PATH`), when the server
  /// records peers (`ServerConfiguration.recordsPeers`) or logs access.
  public var peer: String? { sink?.peer }

  /// The memo of the connection the call came on, for the layer that
  /// checks its credential; nil where there is none to keep.
  public var credentialMemo: CredentialMemo? { sink?.credentialMemo }

  /// Whether the call came over gRPC-Web or Connect rather than gRPC.
  public var isWebCall: Bool { sink is WebCall }

  /// Request messages handed to the handler, counted by whoever delivers
  /// them (the connection's deframer, or the web call).
  func countReceived(_ count: Int) {
    metrics?.received &+= UInt64(count)
  }

  private func countHandled(_ code: GRPCStatus.Code) {
    guard let metrics else { return }
    let elapsed = NanosecondClock.now() &- startedAt
    metrics.handled(code, nanoseconds: elapsed)
    // Web calls are logged as their HTTP request instead; the type check
    // only when there is a log to write.
    if let accessLog = metrics.accessLog, !(sink is WebCall) {
      accessLog.call(
        service: service, method: method, type: metrics.type, code: code,
        duration: .nanoseconds(Int64(elapsed)), peer: sink?.peer)
    }
  }

  /// Runs `work` on this call's event loop, from any thread.
  public func execute(_ work: @escaping @Sendable () -> Void) {
    executor.execute(work)
  }

  /// The executor of the loop this call runs on, shared by all its calls.
  public var loopExecutor: (any LoopExecutor)? { executor }

  /// Runs `work` on the call's loop after `delay`; the result cancels it.
  public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork? {
    sink?.schedule(after: delay, work)
  }

  /// The loop's clock, cached per turn.
  public var now: ContinuousClock.Instant { sink?.now ?? .now }

  /// Runs `work` now when already on the call's loop, otherwise hops there.
  public func onLoop(_ work: @escaping @Sendable () -> Void) {
    if executor.inLoop { work() } else { executor.execute(work) }
  }

  func markFinished() {
    // Ended without a status from the handler (the client reset the
    // stream, the connection went): counted as go-grpc-prometheus sees a
    // cancelled context.
    if !isFinished { countHandled(.cancelled) }
    isFinished = true
    onOutboundDrained = nil
  }

  /// The stream is gone: the call lets go of its connection, so neither
  /// keeps the other alive. Later sends and finishes do nothing.
  func detach() {
    markFinished()
    sink = nil
    stream = nil
  }
}

/// Where a call's output goes: the connection that owns the stream.
protocol ServerCallSink: AnyObject {
  func sendInitialMetadata(_ stream: ServerStream, metadata: Metadata)
  func send(_ stream: ServerStream, message: [UInt8], compress: Bool)
  func send(_ stream: ServerStream, framed: consuming FramedMessage)
  func send(
    _ stream: ServerStream, messageOfSize size: Int, compress: Bool,
    writingWith write: (UnsafeMutableRawBufferPointer) -> Void)
  func finish(_ stream: ServerStream, status: GRPCStatus, trailers: Metadata)
  func execute(_ work: @escaping @Sendable () -> Void)
  var inLoop: Bool { get }
  var loopExecutor: any LoopExecutor { get }
  var now: ContinuousClock.Instant { get }
  /// The peer's address, when the access log wants it.
  var peer: String? { get }
  /// The connection's credential memo.
  var credentialMemo: CredentialMemo? { get }
  func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork
  func releaseOutboundBuffer(_ stream: ServerStream)
}

extension ServerCallSink {
  var peer: String? { nil }
  var credentialMemo: CredentialMemo? { nil }
}
