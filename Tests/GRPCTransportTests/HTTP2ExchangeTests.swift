import CNGHTTP2
import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// Keeps every exchange for the test to answer, and what it was asked.
private final class HoldingResponder: HTTPResponder, @unchecked Sendable {
  // @unchecked Sendable: tests drive it from one thread.
  var requests: [HTTPRequest] = []
  var exchanges: [any HTTPExchange] = []

  func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    requests.append(request)
    exchanges.append(exchange)
  }
}

/// Requests that are not gRPC calls, over HTTP/2, driven in memory by a
/// real nghttp2 client session.
@Suite struct HTTP2ExchangeTests {
  private func connection() -> (InMemoryHTTP2Client, HoldingResponder) {
    let responder = HoldingResponder()
    let group = ConnectionGroup(
      router: Router(services: [EchoService()]), configuration: ServerConfiguration(),
      httpResponder: responder, sharesFrameBuffer: false)
    let server = GRPCServerConnection(
      group: group, scheduler: ManualScheduler(), outputReady: {})
    return (InMemoryHTTP2Client(server: server), responder)
  }

  private func headers(_ method: String, _ path: String, _ extra: [(String, String)] = [])
    -> [(String, String)]
  {
    [(":method", method), (":scheme", "http"), (":authority", "test"), (":path", path)] + extra
  }

  @Test func aBodyIsCollectedAndTheAnswerGoesOutWithItsLength() throws {
    let (client, responder) = connection()
    let stream = client.start(
      headers: headers(
        "PATCH", "/widgets/cpu?x=1",
        [("content-type", "application/merge-patch+json"), ("if-match", "\"7\"")]),
      body: Array("{\"content\":{}}".utf8))
    client.exchange()
    let request = try #require(responder.requests.first)
    #expect(request.method == "PATCH")
    #expect(request.path == "/widgets/cpu")
    #expect(request.query == "x=1")
    #expect(request.version == .http2)
    #expect(request.headers["content-type"] == "application/merge-patch+json")
    #expect(request.headers["if-match"] == "\"7\"")
    #expect(String(decoding: request.body, as: UTF8.self) == "{\"content\":{}}")
    responder.exchanges[0].respond(
      HTTPResponse(status: 200, contentType: "application/json", body: "{}"))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.header(":status") == "200")
    #expect(response.header("content-length") == "2")
    #expect(String(decoding: response.body, as: UTF8.self) == "{}")
    #expect(response.closed && response.resetCode == nil)
  }

  @Test func aStreamGoesOutAsItIsWrittenAndEndsCleanly() {
    let (client, responder) = connection()
    let stream = client.start(headers: headers("GET", "/widgets/events"))
    client.exchange()
    let exchange = responder.exchanges[0]
    exchange.startStream(status: 200, headers: ["content-type": "text/event-stream"])
    exchange.write(Array("data: 1\n\n".utf8))
    client.exchange()
    #expect(client.responses[stream]!.header(":status") == "200")
    #expect(String(decoding: client.responses[stream]!.body, as: UTF8.self) == "data: 1\n\n")
    #expect(!client.responses[stream]!.closed)
    exchange.write(Array("data: 2\n\n".utf8))
    exchange.finish()
    client.exchange()
    #expect(
      String(decoding: client.responses[stream]!.body, as: UTF8.self) == "data: 1\n\ndata: 2\n\n")
    #expect(client.responses[stream]!.closed)
  }

  @Test func aStreamThatTheClientResetsIsCancelled() {
    let (client, responder) = connection()
    let stream = client.start(headers: headers("GET", "/widgets/events"))
    client.exchange()
    let exchange = responder.exchanges[0]
    var cancelled = 0
    exchange.onCancel = { cancelled += 1 }
    exchange.startStream(status: 200, headers: [:])
    client.exchange()
    client.reset(stream)
    client.exchange()
    #expect(cancelled == 1)
    #expect(exchange.isFinished)
  }

  @Test func shutdownEndsAStreamAndTellsItsFace() {
    let (client, responder) = connection()
    let stream = client.start(headers: headers("GET", "/widgets/events"))
    client.exchange()
    let exchange = responder.exchanges[0]
    var cancelled = false
    exchange.onCancel = { cancelled = true }
    exchange.startStream(status: 200, headers: [:])
    client.server.beginShutdown()
    client.exchange()
    #expect(cancelled)
    #expect(client.responses[stream]!.closed && client.responses[stream]!.resetCode == nil)
  }

  @Test func anAnsweredExchangeIsLetGoOnceItsStreamCloses() {
    let (client, responder) = connection()
    let stream = client.start(headers: headers("GET", "/widgets/x"))
    client.exchange()
    weak let exchange = responder.exchanges.first as? HTTP2Exchange
    responder.exchanges[0].respond(HTTPResponse(status: 200, contentType: "t", body: "x"))
    responder.exchanges.removeAll()
    client.exchange()
    #expect(client.responses[stream]!.closed)
    #expect(exchange == nil)
  }

  @Test func anOversizedBodyIs413() {
    let (client, responder) = connection()
    let stream = client.start(
      headers: headers("POST", "/values", [("content-type", "text/plain")]),
      body: [UInt8](repeating: 0x41, count: (1 << 20) + 1))
    client.exchange()
    #expect(responder.requests.isEmpty)
    #expect(client.responses[stream]!.header(":status") == "413")
  }
}
