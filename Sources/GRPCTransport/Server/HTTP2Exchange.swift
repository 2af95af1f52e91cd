import GRPCCore

/// A request on an HTTP/2 stream that is not a gRPC call (REST, events,
/// the index page): its body is collected, then the responder answers
/// through this exchange, as it would over HTTP/1.1. It rides in the
/// stream's handler slot, so streams carry no field for it.
final class HTTP2Exchange: HTTPExchange, RPCHandler {
  enum State {
    /// The request's body is still arriving.
    case collecting(HTTPRequest)
    case awaitingAnswer
    case streaming
    case complete
    case cancelled
  }

  private(set) var state: State
  let stream: ServerStream
  let headOnly: Bool
  let scheduler: any CallScheduler
  /// Weak: a face may keep the exchange past its connection (a write
  /// waiting for the disk).
  private weak var connection: GRPCServerConnection?
  var onOutboundDrained: (() -> Void)?
  var onCancel: (() -> Void)?
  let metrics: LoopMetrics?
  let peer: String?
  let credentialMemo: CredentialMemo?

  init(
    request: HTTPRequest, stream: ServerStream, connection: GRPCServerConnection,
    scheduler: any CallScheduler
  ) {
    self.metrics = connection.group.metrics
    self.peer = connection.peer
    self.credentialMemo = connection.credentialMemo
    self.state = .collecting(request)
    self.stream = stream
    self.headOnly = request.method == "HEAD"
    self.connection = connection
    self.scheduler = scheduler
  }

  var isFinished: Bool {
    switch state {
    case .collecting, .awaitingAnswer, .streaming: false
    case .complete, .cancelled: true
    }
  }

  var pendingOutboundBytes: Int { stream.pendingOutboundBytes }

  /// Appends request body bytes; false once past `limit`.
  func collect(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
    guard case .collecting(var request) = state else { return true }
    guard request.body.count + bytes.count <= limit else { return false }
    state = .awaitingAnswer  // no copy of the body while it grows
    request.body.append(contentsOf: bytes)
    state = .collecting(request)
    return true
  }

  /// The request is complete: it goes to the responder.
  func takeRequest() -> HTTPRequest? {
    guard case .collecting(let request) = state else { return nil }
    state = .awaitingAnswer
    return request
  }

  func respond(_ response: HTTPResponse) {
    guard case .awaitingAnswer = state, let connection else { return }
    state = .complete
    connection.respond(on: stream, with: response, headOnly: headOnly)
  }

  func startStream(status: Int, headers: HTTPFields) {
    guard case .awaitingAnswer = state, let connection else { return }
    state = .streaming
    connection.startHTTPStream(on: stream, status: status, headers: headers, headOnly: headOnly)
  }

  func write(_ bytes: [UInt8]) {
    guard case .streaming = state, !headOnly, let connection else { return }
    connection.writeHTTPStream(on: stream, bytes)
  }

  func finish() {
    guard case .streaming = state, let connection else { return }
    state = .complete
    onOutboundDrained = nil
    // The answer to HEAD ended with its headers.
    if !headOnly { connection.finishHTTPStream(on: stream) }
  }

  /// The stream or connection is gone: the face is told once.
  func cancelExchange() {
    guard !isFinished else { return }
    state = .cancelled
    onOutboundDrained = nil
    let cancel = onCancel
    onCancel = nil
    cancel?()
  }

  // MARK: RPCHandler, for the handler slot

  func receive(message: [UInt8]) {}
  func receiveEnd() {}
  func cancel(_ reason: GRPCStatus) { cancelExchange() }

  /// A stream ends cleanly, so the client can resume elsewhere.
  func serverShutdownBegan() {
    guard case .streaming = state else { return }
    let cancel = onCancel
    onCancel = nil
    cancel?()
    finish()
  }
}
