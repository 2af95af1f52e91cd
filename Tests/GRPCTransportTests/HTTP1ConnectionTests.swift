import GRPCTransport
import GRPCTransportTesting
import Testing

/// Echoes what it was asked, or holds the exchange for the test to answer.
private final class ScriptedResponder: HTTPResponder, @unchecked Sendable {
  // @unchecked Sendable: tests drive it from one thread.
  var requests: [HTTPRequest] = []
  var held: [any HTTPExchange] = []
  var holds = false

  func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    requests.append(request)
    if holds {
      held.append(exchange)
      return
    }
    let body = "\(request.method) \(request.path) \(request.body.count)"
    exchange.respond(HTTPResponse(status: 200, contentType: "text/plain", body: body))
  }
}

/// An HTTP/1.1 connection driven byte for byte, on a manual clock.
private final class HTTP1Harness {
  let scheduler = ManualScheduler()
  let responder = ScriptedResponder()
  var connection: HTTP1ServerConnection!

  init(configure: (inout HTTP1Configuration) -> Void = { _ in }) {
    var configuration = HTTP1Configuration()
    configure(&configuration)
    connection = HTTP1ServerConnection(
      responder: responder, configuration: configuration, scheduler: scheduler,
      outputReady: {})
  }

  @discardableResult
  func send(_ text: String) -> String {
    Array(text.utf8).withUnsafeBytes { _ = connection.receive($0) }
    return output()
  }

  func output() -> String {
    var bytes: [UInt8] = []
    _ = connection.drainOutput(into: &bytes)
    connection.socketFlushed(bytesWritten: bytes.count, backlog: 0)
    return String(decoding: bytes, as: UTF8.self)
  }
}

private func statusLines(_ text: String) -> [String] {
  text.split(separator: "HTTP/1.1 ").dropFirst(text.hasPrefix("HTTP/1.1 ") ? 0 : 1).map {
    "HTTP/1.1 " + $0.prefix { $0 != "\r\n" }
  }
}

@Suite struct HTTP1ConnectionTests {
  @Test func answersARequestAndKeepsTheConnection() {
    let harness = HTTP1Harness()
    let out = harness.send("GET /widgets/cpu?x=1 HTTP/1.1\r\nHost: a\r\nX-Thing: B\r\n\r\n")
    #expect(out.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(out.contains("content-length: 18\r\n"))
    #expect(out.hasSuffix("\r\n\r\nGET /widgets/cpu 0"))
    #expect(!out.contains("connection: close"))
    let request = harness.responder.requests[0]
    #expect(request.query == "x=1")
    #expect(request.headers["x-thing"] == "B")
    #expect(harness.connection.isAlive)
  }

  @Test func pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsLate() {
    let harness = HTTP1Harness()
    harness.responder.holds = true
    let out = harness.send(
      "GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n")
    #expect(out.isEmpty)
    #expect(harness.responder.held.count == 2)
    harness.responder.held[1].respond(HTTPResponse(status: 201, contentType: "t", body: "b"))
    #expect(harness.output().isEmpty)
    harness.responder.held[0].respond(HTTPResponse(status: 200, contentType: "t", body: "a"))
    #expect(statusLines(harness.output()) == ["HTTP/1.1 200 OK", "HTTP/1.1 201 Created"])
  }

  @Test func readsChunkedBodiesInPieces() {
    let harness = HTTP1Harness()
    harness.send("POST /v HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
    #expect(harness.responder.requests.isEmpty)
    let out = harness.send("lo\r\n6\r\n world\r\n0\r\n\r\n")
    #expect(out.hasSuffix("POST /v 11"))
    #expect(String(decoding: harness.responder.requests[0].body, as: UTF8.self) == "hello world")
  }

  @Test func sendsContinueOnlyWhenAsked() {
    let harness = HTTP1Harness()
    let interim = harness.send(
      "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
    #expect(harness.send("ok").hasPrefix("HTTP/1.1 200 OK"))
  }

  @Test func connectionCloseIsHonoured() {
    let harness = HTTP1Harness()
    let out = harness.send("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
    #expect(out.contains("connection: close\r\n"))
    #expect(!harness.connection.isAlive)
  }

  @Test(arguments: [
    (
      "both lengths",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400
    ),
    (
      "two lengths",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400
    ),
    ("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n folded\r\n\r\n", 400),
    ("bare CR", "GET / HTTP/1.1\r\nHost: a\rX: 1\r\n\r\n", 400),
    ("NUL in a field", "GET / HTTP/1.1\r\nHost: a\r\nAccept: \u{0}text/plain\r\n\r\n", 400),
    (
      "a coding before chunked",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      501
    ),
    (
      "a coding in a second field",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n",
      501
    ),
  ])
  func smugglingShapesAreRefusedAndTheConnectionCloses(name: String, request: String, status: Int) {
    let harness = HTTP1Harness()
    let out = harness.send(request)
    #expect(out.hasPrefix("HTTP/1.1 \(status) "), "\(name): \(out)")
    #expect(out.contains("application/problem+json"))
    #expect(out.contains("connection: close"))
    #expect(harness.responder.requests.isEmpty)
    #expect(!harness.connection.isAlive)
  }

  @Test(arguments: [
    ("no host", "GET / HTTP/1.1\r\n\r\n", 400),
    ("two hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("space before colon", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length : 0\r\n\r\n", 400),
    ("HTTP/2.0 as text", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    (
      "unknown coding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
      501
    ),
  ])
  func headsRFC9112RefusesAreRefused(name: String, request: String, status: Int) {
    let harness = HTTP1Harness()
    let out = harness.send(request)
    #expect(out.hasPrefix("HTTP/1.1 \(status) "), "\(name): \(out)")
    #expect(harness.responder.requests.isEmpty)
  }

  @Test func http10NeedsNoHostAndHearsKeepAliveWhenItAsks() {
    let harness = HTTP1Harness()
    let out = harness.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    #expect(out.hasPrefix("HTTP/1.1 200 "))
    #expect(out.contains("connection: keep-alive\r\n"))
  }

  @Test func absoluteFormTargetsAreServedByTheirPath() {
    let harness = HTTP1Harness()
    harness.send("GET http://example.test:8080/widgets?prefix=c HTTP/1.1\r\nHost: a\r\n\r\n")
    #expect(harness.responder.requests.first?.path == "/widgets")
    #expect(harness.responder.requests.first?.query == "prefix=c")
  }

  @Test func noContentCarriesNoLength() {
    let harness = HTTP1Harness()
    harness.responder.holds = true
    harness.send("DELETE /w HTTP/1.1\r\nHost: a\r\n\r\n")
    harness.responder.held[0].respond(HTTPResponse(status: 204))
    let out = harness.output()
    #expect(out == "HTTP/1.1 204 No Content\r\n\r\n")
  }

  @Test func bytesThatAreNoRequestAtAllCloseWithoutAnAnswer() {
    let harness = HTTP1Harness()
    #expect(harness.send("INVALID CONNECTION PREFACE\r\n\r\n").isEmpty)
    #expect(!harness.connection.isAlive)
  }

  @Test func aBadMethodAfterAGoodRequestIs501() {
    let harness = HTTP1Harness()
    let out = harness.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n\u{1}BAD / HTTP/1.1\r\n\r\n")
    #expect(out.contains("HTTP/1.1 501 "))
  }

  @Test func oversizedHeadIs431() {
    let harness = HTTP1Harness()
    let big = String(repeating: "a", count: 17 << 10)
    let out = harness.send("GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(big)\r\n\r\n")
    #expect(out.hasPrefix("HTTP/1.1 431 "))
  }

  @Test func oversizedBodyIs413WhetherAnnouncedOrChunked() {
    let announced = HTTP1Harness { $0.maxBodyBytes = 10 }
    #expect(
      announced.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n")
        .hasPrefix("HTTP/1.1 413 "))
    let chunked = HTTP1Harness { $0.maxBodyBytes = 10 }
    let out = chunked.send(
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nabcdef\r\n"
    )
    #expect(out.hasPrefix("HTTP/1.1 413 "))
    #expect(chunked.responder.requests.isEmpty)
  }

  @Test func aSlowHeadGets408AndAnIdleConnectionCloses() {
    let slow = HTTP1Harness()
    #expect(slow.send("GET / HTTP/1.1\r\nHost").isEmpty)
    slow.scheduler.advance(by: .seconds(11))
    #expect(slow.output().hasPrefix("HTTP/1.1 408 "))
    #expect(!slow.connection.isAlive)

    let idle = HTTP1Harness()
    idle.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    idle.scheduler.advance(by: .seconds(59))
    #expect(idle.connection.isAlive)
    idle.scheduler.advance(by: .seconds(2))
    #expect(!idle.connection.isAlive)
  }

  @Test func fieldsSplitAcrossReadsAndEmptyValuesArriveWhole() {
    let harness = HTTP1Harness()
    for piece in ["GET / HTTP/1.1\r\nHo", "st: a\r\nX-Em", "pty:\r\nX-Long: va", "lue\r\n\r\n"] {
      harness.send(piece)
    }
    let headers = harness.responder.requests.first?.headers
    #expect(headers?.fields.map(\.name) == ["host", "x-empty", "x-long"])
    #expect(headers?["x-empty"] == "")
    #expect(headers?["x-long"] == "value")
  }

  @Test func idlenessCountsFromTheLastAnswerNotTheFirst() {
    let harness = HTTP1Harness()
    harness.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    harness.scheduler.advance(by: .seconds(50))
    harness.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    // 60 s after the first answer, but only 10 s after the second.
    harness.scheduler.advance(by: .seconds(11))
    #expect(harness.connection.isAlive)
    harness.scheduler.advance(by: .seconds(50))
    #expect(!harness.connection.isAlive)
  }

  @Test func nativeGRPCOverHTTP1IsTold505() {
    let harness = HTTP1Harness()
    let out = harness.send(
      "POST /gauge.v1.WidgetService/GetWidget HTTP/1.1\r\nHost: a\r\n"
        + "Content-Type: application/grpc\r\nContent-Length: 0\r\n\r\n")
    #expect(out.hasPrefix("HTTP/1.1 505 "))
    #expect(out.contains("gRPC needs HTTP/2"))
  }

  @Test func headAnswersCarryTheLengthButNoBody() {
    let harness = HTTP1Harness()
    let out = harness.send("HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n")
    #expect(out.contains("content-length: 9\r\n"))
    #expect(out.hasSuffix("\r\n\r\n"))
  }

  @Test func streamsAreChunkedAndEndCleanlyAtShutdown() {
    let harness = HTTP1Harness()
    harness.responder.holds = true
    harness.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
    let exchange = harness.responder.held[0]
    var cancelled = false
    exchange.onCancel = { cancelled = true }
    exchange.startStream(status: 200, headers: ["content-type": "text/event-stream"])
    exchange.write(Array("data: 1\n\n".utf8))
    let out = harness.output()
    #expect(out.contains("transfer-encoding: chunked\r\n"))
    #expect(out.hasSuffix("9\r\ndata: 1\n\n\r\n"))
    harness.connection.beginShutdown()
    #expect(cancelled)
    #expect(harness.output() == "0\r\n\r\n")
    #expect(!harness.connection.isAlive)
  }

  @Test func tooManyPipelinedRequestsWaitForAnswers() {
    let harness = HTTP1Harness { $0.maxPipelinedRequests = 2 }
    harness.responder.holds = true
    harness.send(String(repeating: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", count: 3))
    #expect(harness.responder.requests.count == 2)
    #expect(!harness.connection.wantsInput)
    harness.responder.held[0].respond(HTTPResponse(status: 204))
    _ = harness.output()
    harness.scheduler.advance(by: .zero)
    #expect(harness.responder.requests.count == 3)
    #expect(harness.connection.wantsInput)
  }
}
