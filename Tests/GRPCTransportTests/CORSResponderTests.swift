import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// Stands for the faces: answers whole or opens a stream, and counts what
/// reached it.
private final class FakeFaces: HTTPResponder, @unchecked Sendable {
  // @unchecked Sendable: tests drive it from one thread.
  var requests: [HTTPRequest] = []
  var exchanges: [any HTTPExchange] = []

  func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    requests.append(request)
    exchanges.append(exchange)
    if request.path == "/widgets/events" {
      exchange.startStream(status: 200, headers: ["content-type": "text/event-stream"])
    } else if request.method == "OPTIONS" {
      exchange.respond(HTTPResponse(status: 204, headers: ["allow": "GET, OPTIONS"]))
    } else {
      exchange.respond(
        HTTPResponse(
          status: 200, contentType: "application/json", body: "{}", headers: ["etag": "\"3\""]))
    }
  }
}

/// `CORSResponder` in front of faces, on a recording exchange and over
/// HTTP/2 in memory.
@Suite struct CORSResponderTests {
  private let dash = "https://dash.example.com"

  private func responder(_ origins: String...) throws -> (CORSResponder, FakeFaces) {
    let faces = FakeFaces()
    return (CORSResponder(policy: try CORSPolicy(origins: origins), wrapping: faces), faces)
  }

  private func request(
    _ method: String, _ path: String, _ fields: [(String, String)] = []
  ) -> HTTPRequest {
    var headers = HTTPFields()
    for (name, value) in fields { headers.append(name, value) }
    return HTTPRequest(method: method, path: path, headers: headers)
  }

  private func answer(_ responder: CORSResponder, _ request: HTTPRequest) throws -> HTTPResponse {
    let exchange = RecordingHTTPExchange()
    responder.handle(request, exchange: exchange)
    try #require(exchange.responses.count == 1)
    return exchange.responses[0]
  }

  @Test func aWholeAnswerKeepsItsFieldsAndGainsTheGrant() throws {
    let (cors, faces) = try responder(dash)
    let response = try answer(cors, request("PATCH", "/widgets/cpu", [("origin", dash)]))
    #expect(faces.requests.count == 1)
    #expect(response.status == 200)
    #expect(String(decoding: response.body, as: UTF8.self) == "{}")
    #expect(response.headers["etag"] == "\"3\"")
    #expect(response.headers["content-type"] == "application/json")
    #expect(response.headers["access-control-allow-origin"] == dash)
    #expect(response.headers["access-control-allow-credentials"] == "true")
    #expect(response.headers["access-control-expose-headers"]?.contains("etag") == true)
    #expect(response.headers.values("vary") == ["origin"])
  }

  @Test func aStreamsHeadGainsTheGrantAndItsBodyPassesThrough() throws {
    let (cors, faces) = try responder("*")
    let response = try answer(cors, request("GET", "/widgets/events", [("origin", dash)]))
    #expect(response.headers["content-type"] == "text/event-stream")
    #expect(response.headers["access-control-allow-origin"] == "*")
    #expect(response.headers["access-control-allow-credentials"] == nil)
    #expect(response.headers["access-control-expose-headers"] != nil)
    #expect(!(faces.exchanges[0] is RecordingHTTPExchange))
  }

  @Test func aRequestFromNoOrOtherOriginGetsOnlyVary() throws {
    let (cors, _) = try responder(dash)
    for fields in [[], [("origin", "https://evil.example")]] {
      let response = try answer(cors, request("GET", "/widgets/cpu", fields))
      #expect(response.headers.values("vary") == ["origin"])
      #expect(response.headers["access-control-allow-origin"] == nil)
      #expect(response.headers["access-control-expose-headers"] == nil)
    }
  }

  @Test func anAllowedPreflightIsAnsweredWithoutTheFaces() throws {
    let (cors, faces) = try responder(dash)
    let response = try answer(
      cors,
      request(
        "OPTIONS", "/gauge.v1.WidgetService/GetWidget",
        [
          ("origin", dash), ("access-control-request-method", "POST"),
          ("access-control-request-headers", "content-type,x-grpc-web"),
        ]))
    #expect(faces.requests.isEmpty)
    #expect(response.status == 204)
    #expect(response.headers["access-control-allow-origin"] == dash)
    #expect(response.headers["access-control-allow-headers"] == "content-type,x-grpc-web")
    #expect(response.headers["allow"] == nil)
  }

  @Test func aRefusedPreflightAndAPlainOptionsGoToTheFaces() throws {
    let (cors, faces) = try responder(dash)
    let refused = try answer(
      cors,
      request(
        "OPTIONS", "/widgets/cpu",
        [("origin", "https://evil.example"), ("access-control-request-method", "PATCH")]))
    #expect(refused.headers["allow"] == "GET, OPTIONS")
    #expect(refused.headers["access-control-allow-origin"] == nil)
    #expect(refused.headers["access-control-allow-methods"] == nil)
    let plain = try answer(cors, request("OPTIONS", "/widgets/cpu", [("origin", dash)]))
    #expect(plain.headers["allow"] == "GET, OPTIONS")
    #expect(plain.headers["access-control-allow-origin"] == dash)
    #expect(plain.headers["access-control-allow-methods"] == nil)
    #expect(faces.requests.count == 2)
  }

  @Test func theFacesCallbacksLiveOnTheSessionsExchange() throws {
    let (cors, faces) = try responder(dash)
    let exchange = RecordingHTTPExchange()
    cors.handle(request("GET", "/widgets/events", [("origin", dash)]), exchange: exchange)
    var drained = 0
    faces.exchanges[0].onOutboundDrained = { drained += 1 }
    faces.exchanges[0].onCancel = {}
    exchange.onOutboundDrained?()
    #expect(drained == 1)
    #expect(exchange.onCancel != nil)
    #expect(faces.exchanges[0].isFinished == exchange.isFinished)
  }

  @Test func overHTTP2TheGrantGoesOutInTheHeadersFrame() throws {
    let (cors, faces) = try responder(dash)
    let group = ConnectionGroup(
      router: Router(services: [EchoService()]), configuration: ServerConfiguration(),
      httpResponder: cors, sharesFrameBuffer: false)
    let client = InMemoryHTTP2Client(
      server: GRPCServerConnection(group: group, scheduler: ManualScheduler(), outputReady: {}))
    let head = [(":scheme", "http"), (":authority", "test"), ("origin", dash)]
    let preflight = client.start(
      headers: [(":method", "OPTIONS"), (":path", "/widgets/cpu")] + head + [
        ("access-control-request-method", "PATCH"),
        ("access-control-request-headers", "content-type"),
      ])
    let events = client.start(headers: [(":method", "GET"), (":path", "/widgets/events")] + head)
    client.exchange()
    #expect(faces.requests.map(\.path) == ["/widgets/events"])
    let answered = try #require(client.responses[preflight])
    #expect(answered.header(":status") == "204")
    #expect(answered.header("access-control-allow-origin") == dash)
    #expect(answered.header("access-control-allow-headers") == "content-type")
    #expect(answered.header("access-control-max-age") == "7200")
    #expect(answered.closed && answered.body.isEmpty)
    let stream = try #require(client.responses[events])
    #expect(stream.header(":status") == "200")
    #expect(stream.header("access-control-allow-origin") == dash)
    #expect(stream.header("access-control-allow-credentials") == "true")
    #expect(stream.header("vary") == "origin")
    #expect(!stream.closed)
  }
}
