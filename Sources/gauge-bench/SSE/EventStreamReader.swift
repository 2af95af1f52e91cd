/// An HTTP/1.1 response carrying Server-Sent Events, read as its bytes
/// arrive: the head (which must say 200), then the body, chunked or not,
/// through `ServerSentEventScanner`.
struct EventStreamReader {
  private enum Stage {
    case head
    case chunkedBody
    case wholeBody
    case failed(String)
  }

  private var stage = Stage.head
  private var head = HTTPResponseHeadReader()
  private var chunks = ChunkedBodyDecoder()
  private var events = ServerSentEventScanner()

  /// Why the response is not an event stream; once set, nothing more is read.
  var failure: String? {
    if case .failed(let reason) = stage { return reason }
    return nil
  }

  mutating func read(_ bytes: UnsafeRawBufferPointer, onEvent: (ServerSentEvent) -> Void) {
    var body = bytes
    if case .head = stage {
      switch head.read(bytes) {
      case .needsMore:
        return
      case .malformed(let reason):
        stage = .failed(reason)
        return
      case .head(let parsed, let bodyStart):
        guard parsed.status == 200 else {
          stage = .failed("the event stream was answered with status \(parsed.status)")
          return
        }
        stage = parsed.isChunked ? .chunkedBody : .wholeBody
        body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart...])
      }
    }
    switch stage {
    case .head, .failed:
      return
    case .wholeBody:
      events.scan(body, onEvent: onEvent)
    case .chunkedBody:
      var scanner = events
      events = ServerSentEventScanner()
      chunks.decode(body) { scanner.scan($0, onEvent: onEvent) }
      events = scanner
      if let reason = chunks.failure {
        stage = .failed(reason)
      } else if chunks.isFinished {
        stage = .failed("the event stream ended")
      }
    }
  }
}
