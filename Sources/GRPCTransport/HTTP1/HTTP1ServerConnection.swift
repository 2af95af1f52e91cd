import GRPCCore

/// One HTTP/1.1 connection, as a state machine: bytes in through
/// `receive`, bytes out through `drainOutput`, each request handed to the
/// responder as an `HTTPRequest` with an exchange to answer through.
/// Keep-alive, pipelining (answers in request order), chunked request
/// bodies, `Expect: 100-continue`, and the limits of `HTTP1Configuration`.
/// No I/O happens here; the socket glue (or a test) moves the bytes.
public final class HTTP1ServerConnection {
  /// Whether the connection takes more requests.
  private enum Life {
    case open
    /// No more requests are read; the answers owed still go out, then the
    /// connection closes.
    case closing
    /// Nothing more goes out.
    case closed
  }

  /// Whether the parser is fed.
  private enum Reading {
    case reading
    /// Too many answers are owed: the bytes wait in `heldInput` until some
    /// go out.
    case heldForAnswers
  }

  private let parser: HTTP1RequestParser
  private let responder: any HTTPResponder
  private let configuration: HTTP1Configuration
  let scheduler: any CallScheduler
  private let requestFlush: () -> Void
  private var flushRequested = false
  private var life = Life.open
  private var reading = Reading.reading
  private var heldInput: [UInt8] = []
  /// Requests read whole so far.
  private var requestsRead = 0
  /// In request order; the first one writes, the others wait their turn.
  private var exchanges: [HTTP1Exchange] = []
  /// Bytes that belong to no exchange (a 100 Continue).
  private var interim: [UInt8] = []
  /// What the socket has not taken yet, as the glue last said.
  private var socketBytesQueued = 0
  private var headTimer: ScheduledWork?
  /// At most one timer for idleness, left running while requests come and
  /// go: a keep-alive connection's requests then cost a clock read each,
  /// not a timer scheduled and cancelled each. When it fires it closes the
  /// connection if it has been idle long enough, or waits out the rest.
  private var idleTimer: ScheduledWork?
  /// Since when the connection has had no request in progress or answer
  /// pending; nil while it has one.
  private var idleSince: ContinuousClock.Instant?
  /// Called when held input can be read again (see `wantsInput`).
  public var inputResumed: (() -> Void)?
  /// Sees each request read whole, answered by a face or by the session
  /// itself, in order: the fuzzer must know which answers are to HEAD
  /// requests, which carry no body.
  package var requestRead: ((HTTPRequest) -> Void)?

  /// The loop's counters, handed to each exchange for the faces.
  var metrics: LoopMetrics?
  /// The client's address, set only when the access log wants it.
  var peer: String?
  /// The `authorization` its requests repeat, as text, and what the access
  /// gate concluded about it; made with the first request that carries one.
  private var credentialMemo: CredentialMemo?

  public init(
    responder: any HTTPResponder, configuration: HTTP1Configuration,
    scheduler: any CallScheduler, outputReady: @escaping () -> Void
  ) {
    self.responder = responder
    self.configuration = configuration
    self.scheduler = scheduler
    self.requestFlush = outputReady
    self.parser = HTTP1RequestParser(
      maxHeadBytes: configuration.maxHeadBytes, maxBodyBytes: configuration.maxBodyBytes)
    armIdleTimer()
  }

  deinit {
    headTimer?.cancel()
    idleTimer?.cancel()
  }

  // MARK: The glue's side

  /// Feeds bytes from the peer. Always true: a bad request is answered
  /// (and the connection closed once the answer is out), never dropped.
  @discardableResult
  public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard case .open = life else { return true }
    guard case .reading = reading else {
      heldInput.append(contentsOf: bytes)
      return true
    }
    parse(bytes)
    return true
  }

  /// False while too many answers are owed: the glue stops reading until
  /// `inputResumed`.
  public var wantsInput: Bool {
    guard case .open = life, case .reading = reading else { return false }
    return true
  }

  /// The peer sent its last byte: answers still owed go out, then the
  /// connection closes.
  public func inputEnded() {
    if case .open = life { life = .closing }
    cancelTimers()
    outputReady()
  }

  /// Appends what is ready to send, in request order.
  public func drainOutput(into buffer: inout [UInt8], limit: Int = .max) -> Bool {
    flushRequested = false
    if !interim.isEmpty {
      buffer += interim
      interim.removeAll()
    }
    while let first = exchanges.first, buffer.count < limit {
      if !first.pending.isEmpty {
        buffer += first.pending
        first.pending.removeAll(keepingCapacity: first.isStreaming)
      }
      guard first.isFinished else { break }
      exchanges.removeFirst()
      if case .complete(keepAlive: false) = first.state { stopAfterOwedAnswers() }
    }
    resumeIfRoom()
    armIdleTimerIfIdle()
    return true
  }

  /// Told after each write: what is still queued for the socket. A stream
  /// waiting for room is asked for more once the socket took everything.
  public func socketFlushed(bytesWritten: Int, backlog: Int) {
    socketBytesQueued = backlog
    guard backlog == 0, let first = exchanges.first, first.isStreaming, first.pending.isEmpty
    else { return }
    first.onOutboundDrained?()
  }

  /// False once the connection can be closed.
  public var isAlive: Bool {
    switch life {
    case .open: true
    case .closing: !exchanges.isEmpty || !interim.isEmpty
    case .closed: false
    }
  }

  public var openExchangeCount: Int { exchanges.count }

  /// The socket is gone: every face still answering is told.
  public func connectionLost() {
    life = .closed
    cancelTimers()
    let owed = exchanges
    exchanges.removeAll()
    for exchange in owed { exchange.cancel() }
  }

  /// The server is stopping: no more requests; streams end now, answers
  /// owed still go out.
  public func beginShutdown() {
    if case .open = life { life = .closing }
    cancelTimers()
    for exchange in exchanges { exchange.endStreamForShutdown() }
    outputReady()
  }

  /// The grace period is over: whatever is still owed is dropped.
  public func endGracePeriod() {
    connectionLost()
    outputReady()
  }

  /// Gives back what an idle connection holds only while busy.
  @discardableResult
  public func trimIdleMemory() -> Bool {
    guard exchanges.isEmpty, heldInput.capacity > 0 else { return false }
    heldInput = []
    return true
  }

  // MARK: The exchanges' side

  /// A face answered, wrote or finished.
  func exchangeProgressed() {
    outputReady()
  }

  /// While the connection is open and not stopping.
  var acceptsMoreRequests: Bool {
    if case .open = life { return true }
    return false
  }

  /// What the socket still holds, counted for the exchange that is writing.
  func socketBacklog(behind exchange: HTTP1Exchange) -> Int {
    exchanges.first === exchange ? socketBytesQueued : 0
  }

  // MARK: Parsing

  private func parse(_ input: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < input.count {
      guard case .open = life else { return }
      if exchanges.count >= configuration.maxPipelinedRequests {
        reading = .heldForAnswers
        heldInput.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset...]))
        break
      }
      let (event, consumed) = parser.next(UnsafeRawBufferPointer(rebasing: input[offset...]))
      offset += consumed
      if let event {
        handle(event)
      } else if consumed == 0 {
        break
      }
    }
    updateHeadTimer()
  }

  private func handle(_ event: HTTP1RequestParser.Event) {
    switch event {
    case .head(let head):
      headTimer?.cancel()
      headTimer = nil
      idleSince = nil
      expectContinue(head)
    case .bodyTooLarge:
      fail(
        ProblemDetails(
          status: 413,
          detail: "the request body is larger than \(configuration.maxBodyBytes) bytes"))
    case .failure(let status, let detail):
      fail(ProblemDetails(status: status, detail: detail))
    case .notAMethod(let detail):
      // A peer that has not sent one request is not known to speak HTTP/1:
      // an answer in it would only be misread (HTTP/2 tools read it as
      // frames). It is closed, as an HTTP/2 server closes on a bad preface.
      guard requestsRead > 0 else {
        life = .closed
        cancelTimers()
        return outputReady()
      }
      fail(ProblemDetails(status: 501, detail: detail))
    case .request(let head, let body):
      dispatch(head, body: body)
    }
  }

  /// `Expect: 100-continue`: the client waits for a go before sending the
  /// body. It is sent only when no earlier answer is owed, since an
  /// interim answer cannot overtake them; a client that waits in vain
  /// sends its body after a short while anyway (RFC 9110 section 10.1.1).
  private func expectContinue(_ head: HTTP1RequestHead) {
    guard
      let expect = head.fields["expect"]
    else { return }
    guard expect.lowercased() == "100-continue" else {
      return fail(
        ProblemDetails(status: 417, detail: "expect \"\(expect)\" is not supported"))
    }
    let bodyFollows = head.chunked || (head.contentLength ?? 0) > 0
    guard bodyFollows, head.version == .http1_1, exchanges.isEmpty else { return }
    interim += HTTP1ResponseHead.continueInterim
    outputReady()
  }

  private func dispatch(_ head: HTTP1RequestHead, body: [UInt8]) {
    let fields = head.fields
    let exchange = HTTP1Exchange(
      connection: self, scheduler: scheduler, headOnly: head.method == "HEAD",
      requestKeepsAlive: head.keepAlive, version: head.version,
      credentialMemo: memo(for: fields))
    exchanges.append(exchange)
    if !head.keepAlive { life = .closing }
    let request = HTTPRequest(
      method: head.method, target: Self.originForm(head.target), headers: fields, body: body,
      version: head.version)
    requestsRead += 1
    requestRead?(request)
    if let contentType = fields["content-type"], GRPCContentType.isNativeGRPC(contentType) {
      return exchange.respond(
        ProblemDetails(
          status: 505,
          detail:
            "gRPC needs HTTP/2: connect with HTTP/2 (prior knowledge, or ALPN h2), "
            + "or use gRPC-Web"
        ).response)
    }
    responder.handle(request, exchange: exchange)
  }

  /// `http://host/widgets?x` (absolute form, which proxies send and
  /// servers must take: RFC 9112 section 3.2.2) as `/widgets?x`.
  static func originForm(_ target: String) -> String {
    // Nearly every request is in origin form already.
    if target.utf8.first == UInt8(ascii: "/") { return target }
    let lowered = target.prefix(8).lowercased()
    let schemeLength =
      lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
    guard schemeLength > 0 else { return target }
    let rest = target.dropFirst(schemeLength)
    guard let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    let tail = String(rest[pathStart...])
    return tail.hasPrefix("/") ? tail : "/" + tail
  }

  /// The connection's memo for a request that carries `authorization`;
  /// nil for one that does not, which has nothing to remember.
  private func memo(for fields: HTTPFields) -> CredentialMemo? {
    guard fields.withValue(of: "authorization", { $0 != nil }) else { return nil }
    if let credentialMemo { return credentialMemo }
    let made = CredentialMemo()
    credentialMemo = made
    return made
  }

  /// A request that cannot be read: its answer goes out after those owed,
  /// then the connection closes.
  private func fail(_ problem: ProblemDetails) {
    let exchange = HTTP1Exchange(
      connection: self, scheduler: scheduler, headOnly: false, requestKeepsAlive: false,
      version: .http1_1)
    exchanges.append(exchange)
    life = .closing
    cancelTimers()
    exchange.respond(problem.response)
  }

  /// An answer said `connection: close`: requests read after it go
  /// unanswered, as the client will see the close.
  private func stopAfterOwedAnswers() {
    life = .closing
    let unanswerable = exchanges
    exchanges.removeAll()
    for exchange in unanswerable { exchange.cancel() }
  }

  private func resumeIfRoom() {
    guard case .heldForAnswers = reading, exchanges.count < configuration.maxPipelinedRequests
    else { return }
    reading = .reading
    let held = heldInput
    heldInput.removeAll(keepingCapacity: true)
    // After this turn's drain: parsing answers more, which asks for output.
    _ = scheduler.schedule(after: .zero) { [weak self] in
      guard let self else { return }
      held.withUnsafeBytes { _ = self.receive($0) }
      self.inputResumed?()
    }
  }

  // MARK: Timers

  private func updateHeadTimer() {
    guard case .open = life, parser.requestStarted, parser.readingHead else {
      headTimer?.cancel()
      headTimer = nil
      return
    }
    guard headTimer == nil else { return }
    idleSince = nil
    headTimer = scheduler.schedule(after: configuration.headTimeout) { [weak self] in
      guard let self else { return }
      self.headTimer = nil
      self.fail(
        ProblemDetails(
          status: 408,
          detail: "the request head did not arrive within \(self.configuration.headTimeout)"))
    }
  }

  private func armIdleTimerIfIdle() {
    guard case .open = life, exchanges.isEmpty, !parser.requestStarted, idleSince == nil,
      headTimer == nil
    else { return }
    armIdleTimer()
  }

  /// The connection is idle from now: closed after `idleTimeout` unless a
  /// request starts first.
  private func armIdleTimer() {
    idleSince = scheduler.now
    if idleTimer == nil { scheduleIdleCheck(after: configuration.idleTimeout) }
  }

  private func scheduleIdleCheck(after delay: Duration) {
    idleTimer = scheduler.schedule(after: delay) { [weak self] in
      guard let self else { return }
      self.idleTimer = nil
      guard case .open = self.life, let idleSince = self.idleSince else { return }
      let idleFor = self.scheduler.now - idleSince
      guard idleFor >= self.configuration.idleTimeout else {
        return self.scheduleIdleCheck(after: self.configuration.idleTimeout - idleFor)
      }
      guard self.exchanges.isEmpty, !self.parser.requestStarted else { return }
      self.life = .closed
      self.outputReady()
    }
  }

  private func cancelTimers() {
    headTimer?.cancel()
    headTimer = nil
    idleTimer?.cancel()
    idleTimer = nil
    idleSince = nil
  }

  private func outputReady() {
    guard !flushRequested else { return }
    flushRequested = true
    requestFlush()
  }
}
