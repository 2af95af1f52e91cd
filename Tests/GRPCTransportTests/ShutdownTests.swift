import CNGHTTP2
import GRPCCore
import Testing

@testable import GRPCTransport

/// The graceful shutdown of one connection: GOAWAY in two steps, calls in
/// flight finish, calls still running after the grace period get UNAVAILABLE.
@Suite struct ShutdownTests {
  private let noError = NGHTTP2_NO_ERROR.rawValue

  @Test func noticeThenFinalGoAwayOnceThePingComesBack() {
    let (client, service, _) = makeConnection()
    let inFlight = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Collect"), body: framed([1]),
      end: false)
    client.exchange()
    client.server.beginShutdown()
    client.exchange()
    #expect(
      client.goAways == [
        .init(lastStreamID: Int32.max, errorCode: noError, debug: ""),
        .init(lastStreamID: inFlight, errorCode: noError, debug: ""),
      ])
    // The call in flight finishes normally.
    client.upload(framed([2]), on: inFlight, end: true)
    client.exchange()
    #expect(client.responses[inFlight]!.grpcStatus == 0)
    #expect(client.responses[inFlight]!.messages == [Array("2".utf8)])
    #expect(service.handlers.count == 1)
    #expect(!client.server.isAlive)
  }

  @Test func streamsOpenedBeforeTheFinalGoAwayAreServedLaterOnesIgnored() {
    let peer = RawPeer()
    peer.open()
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    peer.server.beginShutdown()
    #expect(peer.read().compactMap(\.goAway).map(\.lastStreamID) == [Int32.max])
    // Sent before this peer saw the notice.
    peer.send(RawFrames.headers(stream: 3, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    #expect(peer.service.handlers.count == 2)
    // This peer never answers the PING: the final GOAWAY comes anyway.
    peer.scheduler.advance(by: GRPCServerConnection.shutdownNoticeWait)
    #expect(peer.read().compactMap(\.goAway).map(\.lastStreamID) == [3])
    peer.send(RawFrames.headers(stream: 5, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    #expect(peer.service.handlers.count == 2)
    #expect(peer.server.isAlive)
  }

  @Test func callsStillRunningAfterTheGraceGetUnavailable() {
    let (client, service, _) = makeConnection()
    let streams = (0..<3).map { _ in
      client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
        end: false)
    }
    client.exchange()
    client.server.beginShutdown()
    client.exchange()
    client.server.endGracePeriod()
    client.exchange()
    for stream in streams {
      #expect(client.responses[stream]!.grpcStatus == GRPCStatus.Code.unavailable.rawValue)
      #expect(client.responses[stream]!.grpcMessage == "the server is shutting down")
    }
    #expect(service.handlers.allSatisfy { $0.cancelled?.code == .unavailable })
    #expect(client.server.openStreamCount == 0)
    #expect(!client.server.isAlive)
  }

  @Test func idleConnectionGetsTheFinalGoAwayAtOnce() {
    let (client, _, _) = makeConnection()
    client.exchange()
    client.server.beginShutdown()
    client.exchange()
    #expect(client.goAways == [.init(lastStreamID: 0, errorCode: noError, debug: "")])
    #expect(!client.server.isAlive)
  }
}

@Suite struct BannerTests {
  private func request(method: String, path: String, contentType: String?) -> (
    InMemoryHTTP2Client.Response, EchoService
  ) {
    let (client, service, _) = makeConnection { $0.serverName = "gauged/9.9" }
    var headers: [(String, String)] = [
      (":method", method), (":scheme", "http"), (":authority", "test"), (":path", path),
    ]
    if let contentType { headers.append(("content-type", contentType)) }
    let stream = client.start(headers: headers, body: method == "POST" ? Array("x".utf8) : [])
    client.exchange()
    return (client.responses[stream]!, service)
  }

  @Test func getRootAnswersWithTheBanner() {
    let (response, service) = request(method: "GET", path: "/", contentType: nil)
    #expect(response.header(":status") == "200")
    #expect(response.header("content-type") == "text/plain; charset=utf-8")
    let text = String(decoding: response.body, as: UTF8.self)
    #expect(text.hasPrefix("gauged/9.9\n"))
    #expect(text.contains("  test.Echo\n"))
    #expect(service.handlers.isEmpty)
  }

  /// `/` belongs to the HTTP faces, which answer GET and HEAD there.
  @Test func postRootWithoutGRPCIsMethodNotAllowed() {
    let (response, _) = request(method: "POST", path: "/", contentType: "text/plain")
    #expect(response.header(":status") == "405")
    #expect(response.header("allow") == "GET, HEAD")
  }

  @Test func unknownPathsWithoutGRPCAreNotFound() {
    let (response, service) = request(method: "GET", path: "/nowhere", contentType: nil)
    #expect(response.header(":status") == "404")
    #expect(response.header("content-type") == "application/problem+json")
    #expect(service.handlers.isEmpty)
  }

  @Test func grpcPostToRootIsStillARoutingError() {
    let (response, _) = request(method: "POST", path: "/", contentType: "application/grpc")
    #expect(response.grpcStatus == GRPCStatus.Code.unimplemented.rawValue)
  }

  @Test func getElsewhereIsMethodNotAllowed() {
    let (response, _) = request(method: "GET", path: "/test.Echo/Echo", contentType: nil)
    #expect(response.header(":status") == "405")
    #expect(response.header("allow") == "POST")
    #expect(response.header("content-type") == "application/problem+json")
    #expect(String(decoding: response.body, as: UTF8.self).contains("\"status\":405"))
  }

  /// HEAD gets GET's headers and no content: the client session, like
  /// curl's, resets a HEAD response that carries a body.
  @Test func headRootGetsTheBannersHeadersWithoutTheBody() {
    let (get, _) = request(method: "GET", path: "/", contentType: nil)
    let (head, service) = request(method: "HEAD", path: "/", contentType: nil)
    #expect(head.header(":status") == "200")
    #expect(head.header("content-type") == "text/plain; charset=utf-8")
    #expect(head.header("content-length") == String(get.body.count))
    #expect(head.body.isEmpty)
    #expect(head.closed && head.resetCode == nil)
    #expect(service.handlers.isEmpty)
  }

  @Test func headElsewhereIsMethodNotAllowedWithoutABody() {
    let (response, _) = request(method: "HEAD", path: "/test.Echo/Echo", contentType: nil)
    #expect(response.header(":status") == "405")
    #expect(response.header("allow") == "POST")
    #expect(response.body.isEmpty)
    #expect(response.closed && response.resetCode == nil)
  }

  @Test func otherMethodsOnRootAreMethodNotAllowed() {
    let (response, _) = request(method: "PUT", path: "/", contentType: nil)
    #expect(response.header(":status") == "405")
    #expect(response.header("allow") == "GET, HEAD")
  }
}
