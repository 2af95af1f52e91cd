import GRPCTransport
import GRPCTransportTesting
import GaugeService

/// Runs an input as the raw bytes an HTTP/1.1 client sends after accept,
/// to a session whose responder is gauged's web router (gRPC-Web, Connect,
/// REST, live events, the index page) over the in-memory store, on a
/// manual clock.
///
/// The input starts with a few bytes of its own: limits, then how many
/// reads the rest arrives in, and for each cut where it falls and how far
/// the clock moves after the read before it. The rest is the client's.
///
/// Beyond crashes, a run fails when:
/// - the output does not read as HTTP/1.1 responses, each framed by
///   `content-length` or chunked coding consistently with the bytes that
///   follow (a HEAD answer has no body), or bytes follow a
///   `connection: close`;
/// - there are more answers than requests read, plus one for a request
///   that could not be read;
/// - a problem answer is not a well-formed problem+json;
/// - once the input ended and every timer had its time, the session is
///   still alive for anything but a live event stream (SSE, or Subscribe
///   over gRPC-Web or Connect);
/// - once the connection is lost, an exchange or a subscriber is left;
/// - the store holds a widget that validation would refuse.
public enum HTTP1Harness {
  static let maxReads = 4

  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    var input = FuzzInput(data)
    let configuration = Self.configuration(from: input.byte() ?? 0)
    let cutCount = Int(input.byte() ?? 0) % maxReads
    var cuts: [(at: Int, advance: Duration)] = []
    for _ in 0..<cutCount {
      let at = Int(input.uint16() ?? 0)
      cuts.append((at, .milliseconds(Int(input.byte() ?? 0) * 100)))
    }
    let bytes = input.bytes(upTo: data.count)
    try Session(configuration: configuration).run(bytes, cuts: cuts)
  }

  /// Tight limits reach the paths that refuse, hold input back and time
  /// out; the defaults are what gauged runs with.
  static func configuration(from flags: UInt8) -> HTTP1Configuration {
    var configuration = HTTP1Configuration()
    if flags & 0x01 != 0 { configuration.maxHeadBytes = 256 }
    if flags & 0x02 != 0 { configuration.maxBodyBytes = 512 }
    if flags & 0x04 != 0 { configuration.maxPipelinedRequests = 2 }
    if flags & 0x08 != 0 {
      configuration.headTimeout = .seconds(1)
      configuration.idleTimeout = .seconds(2)
    }
    return configuration
  }

  /// One connection and what it was asked and answered.
  private final class Session {
    let server = FuzzedServer()
    let scheduler = ManualScheduler()
    let recorder: ExchangeRecorder
    var connection: HTTP1ServerConnection?
    var requests: [HTTPRequest] = []
    var output: [UInt8] = []
    let configuration: HTTP1Configuration

    init(configuration: HTTP1Configuration) {
      self.configuration = configuration
      recorder = ExchangeRecorder(responder: server.web)
      let connection = HTTP1ServerConnection(
        responder: recorder, configuration: configuration, scheduler: scheduler,
        outputReady: {})
      connection.requestRead = { [unowned self] in self.requests.append($0) }
      self.connection = connection
    }

    func run(_ bytes: [UInt8], cuts: [(at: Int, advance: Duration)]) throws(FuzzFinding) {
      guard let connection else { return }
      let ends = cuts.map { bytes.isEmpty ? 0 : $0.at % (bytes.count + 1) }.sorted()
      var start = 0
      for (index, end) in (ends + [bytes.count]).enumerated() {
        bytes[start..<max(start, end)].withUnsafeBytes { _ = connection.receive($0) }
        start = max(start, end)
        try drain()
        if index < cuts.count {
          scheduler.advance(by: cuts[index].advance)
          try drain()
        }
      }
      connection.inputEnded()
      try drain()
      // Past every timeout (head, idle, the events keepalive), in steps as
      // loop turns would take them; a resumed read runs at the next turn.
      for _ in 0..<4 {
        scheduler.advance(by: configuration.idleTimeout + .seconds(1))
        try drain()
      }
      let responses = try read()
      if connection.isAlive { try expectLiveEventStream(responses) }

      connection.connectionLost()
      if connection.openExchangeCount != 0 {
        throw FuzzFinding(
          "\(connection.openExchangeCount) exchange(s) kept after the connection was lost")
      }
      self.connection = nil
      if server.hub.subscriberCount != 0 {
        throw FuzzFinding(
          "\(server.hub.subscriberCount) event subscriber(s) left after the connection was lost")
      }
      if let kept = recorder.exchanges.firstIndex(where: { $0.exchange != nil }) {
        throw FuzzFinding(
          "the exchange of \(recorder.exchanges[kept].what) outlived its connection")
      }
      try StoreCheck.verify(server.store)
    }

    /// Takes what the session has to send, as the socket glue would, and
    /// checks everything sent so far.
    private func drain() throws(FuzzFinding) {
      guard let connection else { return }
      let before = output.count
      _ = connection.drainOutput(into: &output)
      connection.socketFlushed(bytesWritten: output.count - before, backlog: 0)
      _ = try read()
    }

    private func read() throws(FuzzFinding) -> HTTP1ResponseReader {
      let reader = try HTTP1ResponseReader.read(output) { index in
        index < requests.count && requests[index].method == "HEAD"
      }
      if reader.responses.count > requests.count + 1 {
        throw FuzzFinding(
          "\(reader.responses.count) answers to \(requests.count) request(s) read, with at most"
            + " one more for a request that could not be read")
      }
      for (index, response) in reader.responses.enumerated()
      where response.status >= 400 && response.isComplete
        && !(index < requests.count && requests[index].method == "HEAD")
      {
        try ProblemCheck.verify(
          status: response.status, contentType: response.field("content-type"),
          body: response.body, what: "answer \(index + 1)")
      }
      return reader
    }

    static let liveRPCTypes: Set<String> = [
      "application/grpc-web+proto", "application/grpc-web-text+proto", "application/connect+proto",
      "application/connect+json",
    ]

    /// A session that outlives its input and every timer may only be
    /// serving a live event stream. Answers before it went out whole and
    /// those after it wait, so it is the last answer written: still open
    /// for a GET, whole for a HEAD, whose stream sends no body.
    private func expectLiveEventStream(_ reader: HTTP1ResponseReader) throws(FuzzFinding) {
      let index = reader.responses.count - 1
      if index >= 0, index < requests.count {
        let request = requests[index]
        let response = reader.responses[index]
        let streaming = request.method == "HEAD" || !response.isComplete
        if request.path == EventsFace.path, response.status == 200,
          response.field("content-type") == "text/event-stream", streaming
        {
          return
        }
        // A subscription over gRPC-Web or Connect is just as live.
        if request.path == "/gauge.v1.WidgetService/Subscribe", response.status == 200,
          Self.liveRPCTypes.contains(response.field("content-type") ?? ""), streaming
        {
          return
        }
      }
      throw FuzzFinding(
        "the session is alive after its input ended and every timer fired, with"
          + " \(connection?.openExchangeCount ?? 0) exchange(s) and no live event stream"
          + " (\(reader.responses.count) answer(s) to \(requests.count) request(s))")
    }
  }
}

/// Passes requests to the web router, keeping a weak reference to each
/// exchange, so that the harness can tell one that outlives its connection.
///
/// @unchecked Sendable: a harness drives it from one thread.
private final class ExchangeRecorder: HTTPResponder, @unchecked Sendable {
  struct Recorded {
    weak var exchange: (any HTTPExchange)?
    let what: String
  }

  private let responder: any HTTPResponder
  private(set) var exchanges: [Recorded] = []

  init(responder: any HTTPResponder) {
    self.responder = responder
  }

  func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    exchanges.append(Recorded(exchange: exchange, what: "\(request.method) \(request.path)"))
    responder.handle(request, exchange: exchange)
  }
}
