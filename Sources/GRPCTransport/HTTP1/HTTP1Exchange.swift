import GRPCCore

/// One HTTP/1.1 request's answer, in its place in the connection's queue:
/// answers are written in request order (pipelining), so an exchange keeps
/// its bytes until every exchange before it is done.
final class HTTP1Exchange: HTTPExchange {
  enum State {
    case awaitingAnswer
    case streaming(HTTP1ResponseHead.Framing)
    /// Answered whole, or a stream that ended; `keepAlive` said whether the
    /// connection carries another request after it.
    case complete(keepAlive: Bool)
    case cancelled
  }

  private(set) var state = State.awaitingAnswer
  /// Bytes of this answer not yet handed to the socket.
  var pending: [UInt8] = []
  let headOnly: Bool
  let requestKeepsAlive: Bool
  let version: HTTPVersion
  let scheduler: any CallScheduler
  /// The connection carrying it; weak, since a face may hold an exchange
  /// after the connection is gone (a write waiting for the disk).
  private weak var connection: HTTP1ServerConnection?
  var onOutboundDrained: (() -> Void)?
  var onCancel: (() -> Void)?
  let metrics: LoopMetrics?
  let peer: String?
  let credentialMemo: CredentialMemo?

  init(
    connection: HTTP1ServerConnection, scheduler: any CallScheduler, headOnly: Bool,
    requestKeepsAlive: Bool, version: HTTPVersion, credentialMemo: CredentialMemo? = nil
  ) {
    self.connection = connection
    self.metrics = connection.metrics
    self.peer = connection.peer
    self.credentialMemo = credentialMemo
    self.scheduler = scheduler
    self.headOnly = headOnly
    self.requestKeepsAlive = requestKeepsAlive
    self.version = version
  }

  var isFinished: Bool {
    switch state {
    case .awaitingAnswer, .streaming: false
    case .complete, .cancelled: true
    }
  }

  var isStreaming: Bool {
    if case .streaming = state { return true }
    return false
  }

  var keepsAliveAfterAnswer: Bool {
    if case .complete(let keepAlive) = state { return keepAlive }
    return false
  }

  var pendingOutboundBytes: Int {
    pending.count + (connection?.socketBacklog(behind: self) ?? 0)
  }

  func respond(_ response: HTTPResponse) {
    guard case .awaitingAnswer = state, let connection else { return }
    let keepAlive = requestKeepsAlive && connection.acceptsMoreRequests
    pending += HTTP1ResponseHead.bytes(
      status: response.status, headers: response.headers,
      framing: .length(response.body.count), keepAlive: keepAlive,
      http1_0Peer: version == .http1_0)
    if !headOnly, response.status != 204 { pending += response.body }
    state = .complete(keepAlive: keepAlive)
    connection.exchangeProgressed()
  }

  func startStream(status: Int, headers: HTTPFields) {
    guard case .awaitingAnswer = state, let connection else { return }
    // HTTP/1.0 has no chunked coding: its streams end with the connection.
    let framing: HTTP1ResponseHead.Framing = version == .http1_0 ? .untilClose : .chunked
    pending += HTTP1ResponseHead.bytes(
      status: status, headers: headers, framing: framing,
      keepAlive: framing == .chunked && requestKeepsAlive && connection.acceptsMoreRequests)
    state = .streaming(framing)
    connection.exchangeProgressed()
  }

  func write(_ bytes: [UInt8]) {
    guard case .streaming(let framing) = state, !headOnly else { return }
    switch framing {
    case .chunked: HTTP1ResponseHead.appendChunk(bytes, to: &pending)
    case .untilClose, .length: pending += bytes
    }
    connection?.exchangeProgressed()
  }

  func finish() {
    guard case .streaming(let framing) = state else { return }
    if framing == .chunked, !headOnly { pending += HTTP1ResponseHead.lastChunk }
    let keepAlive =
      framing == .chunked && requestKeepsAlive && (connection?.acceptsMoreRequests ?? false)
    state = .complete(keepAlive: keepAlive)
    onOutboundDrained = nil
    connection?.exchangeProgressed()
  }

  /// The connection is gone or stopping: the face is told once.
  func cancel() {
    guard !isFinished else { return }
    state = .cancelled
    pending = []
    onOutboundDrained = nil
    let cancel = onCancel
    onCancel = nil
    cancel?()
  }

  /// The server is stopping: a stream's face lets go, and its body ends
  /// properly so the client sees a clean end rather than a cut.
  func endStreamForShutdown() {
    guard isStreaming else { return }
    let cancel = onCancel
    onCancel = nil
    cancel?()
    finish()
  }
}
