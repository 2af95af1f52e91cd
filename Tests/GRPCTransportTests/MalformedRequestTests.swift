import CNGHTTP2
import Testing

@testable import GRPCTransport

/// A malformed request (RFC 9113 section 8.1.1) gets its stream reset with
/// PROTOCOL_ERROR, reaches no handler, and leaves the connection serving:
/// the server session checks these rules itself, nghttp2's HTTP checks off.
@Suite struct MalformedRequestTests {
  private let protocolError = NGHTTP2_PROTOCOL_ERROR.rawValue

  @Test(
    arguments: [
      [("connection", "keep-alive")], [("X-Upper", "a")], [(":protocol", "websocket")],
      [("te", "deflate")], [("content-length", "1x")],
    ] as [[(String, String)]])
  func aForbiddenFieldResetsTheStream(extra: [(String, String)]) {
    let peer = openPeer()
    peer.send(
      RawFrames.headers(
        stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Echo", extra: extra)))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    // Once: nghttp2's own reset for the failed callback is not sent after it.
    #expect(peer.frames.filter { $0.type == 0x3 }.count == 1)
    #expect(peer.service.handlers.isEmpty)
    expectServing(peer, stream: 3)
  }

  @Test func aRequestWithoutItsSchemeResetsTheStream() {
    let peer = openPeer()
    let fields = InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo")
      .filter { $0.0 != ":scheme" }
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.block(fields), endStream: true))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.service.handlers.isEmpty)
    expectServing(peer, stream: 3)
  }

  @Test func moreContentThanDeclaredResetsTheCall() {
    let peer = openPeer()
    sendBody(framed([1, 2, 3]), declaringOff: -1, to: "/test.Echo/Hold", on: peer)
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.service.handlers.first?.messages.isEmpty == true)
    expectServing(peer, stream: 3)
  }

  @Test func lessContentThanDeclaredResetsTheCall() {
    let peer = openPeer()
    sendBody(framed([1, 2, 3]), declaringOff: +1, to: "/test.Echo/Echo", on: peer)
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.service.handlers.first?.ended == false)
    expectServing(peer, stream: 3)
  }

  @Test func declaredContentInHeadersThatEndTheStreamIsMalformed() {
    let peer = openPeer()
    peer.send(
      RawFrames.headers(
        stream: 1,
        block: RawFrames.requestBlock(path: "/test.Echo/Echo", extra: [("content-length", "5")]),
        endStream: true))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.service.handlers.isEmpty)
  }

  /// The exact length declared is served like any request.
  @Test func theDeclaredLengthIsServed() {
    let peer = openPeer()
    sendBody(framed([7]), declaringOff: 0, to: "/test.Echo/Echo", on: peer)
    #expect(peer.resetCode(stream: 1) == nil)
    #expect(peer.service.handlers.first?.messages == [[7]])
  }

  @Test func trailersThatDoNotEndTheStreamAreMalformed() {
    let peer = openPeer()
    peer.send(
      RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Collect")))
    peer.send(RawFrames.frame(type: 0x0, stream: 1, payload: framed([1])))
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.block([("x-sum", "1")])))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.service.handlers.first?.ended == false)
    expectServing(peer, stream: 3)
  }

  @Test func pseudoHeadersInTrailersAreMalformed() {
    let peer = openPeer()
    peer.send(
      RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Collect")))
    peer.send(
      RawFrames.headers(stream: 1, block: RawFrames.block([(":path", "/x")]), endStream: true))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.service.handlers.first?.ended == false)
  }

  /// Trailers that end the stream are read and ignored; the call ends.
  @Test func trailersThatEndTheStreamEndTheCall() {
    let peer = openPeer()
    peer.send(
      RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Collect")))
    peer.send(RawFrames.frame(type: 0x0, stream: 1, payload: framed([1])))
    peer.send(
      RawFrames.headers(stream: 1, block: RawFrames.block([("x-sum", "1")]), endStream: true))
    peer.read()
    #expect(peer.resetCode(stream: 1) == nil)
    #expect(peer.service.handlers.first?.ended == true)
  }

  /// What the rules allow is served: `host` in place of `:authority`, `te`
  /// in capitals, and a field with a bad value, which is left out.
  @Test func lenientFormsAreServed() {
    let peer = openPeer()
    let fields: [(String, String)] = [
      (":method", "POST"), (":scheme", "http"), (":path", "/test.Echo/Echo"),
      ("host", "localhost:9090"), ("content-type", "application/grpc"), ("te", "Trailers"),
      ("x-padded", " value"), ("x-kept", "yes"),
    ]
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.block(fields)))
    peer.send(RawFrames.frame(type: 0x0, flags: 0x1, stream: 1, payload: framed([5])))
    peer.read()
    #expect(peer.resetCode(stream: 1) == nil)
    #expect(peer.service.handlers.first?.messages == [[5]])
    #expect(peer.service.handlers.first?.call.metadata["x-padded"] == nil)
    #expect(peer.service.handlers.first?.call.metadata["x-kept"] == .text("yes"))
  }

  /// A request on stream 1 whose `content-length` is `offset` away from the
  /// body that follows it, in one DATA frame ending the stream.
  private func sendBody(
    _ body: [UInt8], declaringOff offset: Int, to path: String, on peer: RawPeer
  ) {
    peer.send(
      RawFrames.headers(
        stream: 1,
        block: RawFrames.requestBlock(
          path: path, extra: [("content-length", "\(body.count + offset)")])))
    peer.send(RawFrames.frame(type: 0x0, flags: 0x1, stream: 1, payload: body))
    peer.read()
  }

  private func openPeer() -> RawPeer {
    let peer = RawPeer()
    peer.open()
    return peer
  }

  /// The connection still serves a well-formed call on `stream`.
  private func expectServing(_ peer: RawPeer, stream: Int32) {
    let before = peer.service.handlers.count
    peer.send(
      RawFrames.headers(stream: stream, block: RawFrames.requestBlock(path: "/test.Echo/Echo")))
    peer.send(RawFrames.frame(type: 0x0, flags: 0x1, stream: stream, payload: framed([9])))
    peer.read()
    #expect(peer.resetCode(stream: stream) == nil)
    #expect(peer.service.handlers.count == before + 1)
    #expect(peer.service.handlers.last?.messages == [[9]])
    #expect(peer.server.isAlive)
  }
}
