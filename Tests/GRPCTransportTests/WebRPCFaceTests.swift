import GRPCCore
import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// gRPC-Web and Connect driven in memory: requests in, the exchange's
/// recorded answer out, with `test.Echo`'s handlers doing the work exactly
/// as they do for gRPC.
@Suite struct WebRPCFaceTests {
  let service = EchoService()
  let scheduler = ManualScheduler()

  var face: WebRPCFace {
    WebRPCFace(
      services: [service],
      traits: [
        "/test.Echo/Echo": RPCMethodTraits(sideEffectFree: true),
        "/test.Echo/Collect": RPCMethodTraits(clientStreams: true),
        "/test.Echo/Hold": RPCMethodTraits(serverStreams: true),
      ],
      jsonCodecs: ["/test.Echo/Echo": QuotedTextCodec()], configuration: ServerConfiguration())
  }

  func send(
    _ target: String, method: String = "POST", contentType: String?, body: [UInt8] = [],
    headers: [(String, String)] = []
  ) -> RecordingHTTPExchange {
    var fields = HTTPFields()
    if let contentType { fields.append("content-type", contentType) }
    for (name, value) in headers { fields.append(name, value) }
    let exchange = RecordingHTTPExchange(scheduler: scheduler)
    face.handle(
      HTTPRequest(method: method, target: target, headers: fields, body: body), exchange: exchange)
    return exchange
  }

  static func framed(_ message: String, flags: UInt8 = 0) -> [UInt8] {
    WebResponseFraming.envelope(flags: flags, Array(message.utf8))
  }

  // MARK: gRPC-Web

  @Test func grpcWebAnswersWithTheMessageThenTheTrailerFrame() {
    let exchange = send(
      "/test.Echo/Echo", contentType: "application/grpc-web+proto", body: Self.framed("hi"))
    #expect(exchange.responses.count == 1)
    let response = exchange.responses[0]
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "application/grpc-web+proto")
    #expect(response.body == Self.framed("hi") + Self.framed("grpc-status:0\r\n", flags: 0x80))
  }

  @Test func grpcWebTextReadsPaddedPiecesAndAnswersInBase64() {
    // Two pieces, each padded: as a client flushing twice sends them.
    let framed = Self.framed("hello")
    let body =
      Base64.encodedBytes(Array(framed[..<4]), padded: true)
      + Base64.encodedBytes(Array(framed[4...]), padded: true)
    let exchange = send("/test.Echo/Echo", contentType: "application/grpc-web-text", body: body)
    let response = exchange.responses[0]
    #expect(response.headers["content-type"] == "application/grpc-web-text+proto")
    #expect(
      Base64.decodeConcatenated(response.body)
        == Self.framed("hello") + Self.framed("grpc-status:0\r\n", flags: 0x80))
  }

  @Test func grpcWebFailureCarriesStatusMessageAndDetailsInTheTrailerFrame() {
    let exchange = send(
      "/test.Echo/Fail", contentType: "application/grpc-web", body: Self.framed("bad value"))
    let trailer =
      "grpc-status:3\r\ngrpc-message:bad value\r\ngrpc-status-details-bin:"
      + Base64.encode([1, 2, 3, 250]) + "\r\n"
    #expect(exchange.responses[0].status == 200)
    #expect(exchange.responses[0].body == Self.framed(trailer, flags: 0x80))
  }

  @Test func grpcWebRefusesMethodsThatStreamRequests() {
    let exchange = send(
      "/test.Echo/Collect", contentType: "application/grpc-web", body: Self.framed("a"))
    let body = String(decoding: exchange.responses[0].body.dropFirst(5), as: UTF8.self)
    #expect(body.hasPrefix("grpc-status:12\r\n"))
    #expect(body.contains("gRPC-Web cannot carry"))
    #expect(service.handlers.isEmpty)
  }

  @Test func grpcWebServerStreamStartsAtOnceAndEndsWithTheTrailerFrame() {
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/grpc-web+proto", body: Self.framed("go"))
    let call = service.handlers[0].call
    call.sendInitialMetadata(Metadata())
    #expect(exchange.responses.map(\.status) == [200])
    call.send(message: Array("one".utf8))
    call.send(message: Array("two".utf8))
    call.finish(.ok)
    #expect(
      exchange.streamed
        == Self.framed("one") + Self.framed("two") + Self.framed("grpc-status:0\r\n", flags: 0x80))
    #expect(exchange.streamFinished)
  }

  // MARK: Connect

  @Test func connectUnaryProtoIsTheBareMessage() {
    let exchange = send("/test.Echo/Echo", contentType: "application/proto", body: Array("hi".utf8))
    #expect(exchange.responses[0].status == 200)
    #expect(exchange.responses[0].headers["content-type"] == "application/proto")
    #expect(exchange.responses[0].body == Array("hi".utf8))
  }

  @Test func connectUnaryErrorIsJSONWithTheCodesHTTPStatus() {
    let exchange = send("/test.Echo/Fail", contentType: "application/proto", body: Array("no".utf8))
    let response = exchange.responses[0]
    #expect(response.status == 400)
    #expect(response.headers["content-type"] == "application/json")
    #expect(
      String(decoding: response.body, as: UTF8.self)
        == #"{"code":"invalid_argument","message":"no"}"#)
  }

  @Test func connectJSONGoesThroughTheMethodsCodecBothWays() {
    let exchange = send(
      "/test.Echo/Echo", contentType: "application/json; charset=utf-8",
      body: Array(#""hi""#.utf8))
    #expect(service.handlers[0].messages == [Array("hi".utf8)])
    #expect(exchange.responses[0].headers["content-type"] == "application/json")
    #expect(exchange.responses[0].body == Array(#""hi""#.utf8))
  }

  @Test func connectJSONThatTheCodecRefusesIsInvalidArgument() {
    let exchange = send("/test.Echo/Echo", contentType: "application/json", body: Array("{}".utf8))
    #expect(exchange.responses[0].status == 400)
    #expect(service.handlers.isEmpty)
  }

  @Test func connectJSONWithoutACodecIsUnimplemented() {
    let exchange = send("/test.Echo/Fail", contentType: "application/json", body: Array("1".utf8))
    #expect(exchange.responses[0].status == 501)
  }

  @Test func connectStreamingCarriesEveryRequestEnvelopeAndEndsWithTheEndOfStreamMessage() {
    let exchange = send(
      "/test.Echo/Collect", contentType: "application/connect+proto",
      body: Self.framed("a") + Self.framed("b") + Self.framed("c"))
    let response = exchange.responses[0]
    #expect(response.headers["content-type"] == "application/connect+proto")
    #expect(response.body == Self.framed("3") + Self.framed("{}", flags: 0x02))
  }

  @Test func connectStreamingErrorIsInTheEndOfStreamMessage() {
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/connect+json", body: Self.framed("{}"))
    #expect(exchange.responses[0].status == 200)
    #expect(
      exchange.responses[0].body
        == Self.framed(
          #"{"error":{"code":"unimplemented","message":"/test.Echo/Hold does not accept JSON"}}"#,
          flags: 0x02))
  }

  @Test func connectRefusesAStreamingContentTypeForAUnaryMethodAndTheReverse() {
    let unary = send(
      "/test.Echo/Echo", contentType: "application/connect+proto", body: Self.framed("a"))
    #expect(unary.responses[0].status == 200)
    #expect(String(decoding: unary.responses[0].body, as: UTF8.self).contains("unimplemented"))
    let streaming = send("/test.Echo/Collect", contentType: "application/proto", body: [])
    #expect(streaming.responses[0].status == 501)
    #expect(service.handlers.isEmpty)
  }

  @Test func connectGetReadsTheMessageFromTheQuery() {
    let message = Base64.encode(Array("hey".utf8))
    let exchange = send(
      "/test.Echo/Echo?connect=v1&encoding=proto&base64=1&message=\(message)", method: "GET",
      contentType: nil)
    #expect(exchange.responses[0].status == 200)
    #expect(exchange.responses[0].body == Array("hey".utf8))
    let json = send(
      "/test.Echo/Echo?connect=v1&encoding=json&message=%22yo%22", method: "GET", contentType: nil)
    #expect(json.responses[0].body == Array(#""yo""#.utf8))
  }

  @Test func getIsOnlyForMethodsWithoutSideEffects() {
    let exchange = send("/test.Echo/Fail?encoding=proto&message=x", method: "GET", contentType: nil)
    #expect(exchange.responses[0].status == 405)
    #expect(exchange.responses[0].headers["allow"] == "POST")
    #expect(service.handlers.isEmpty)
  }

  @Test func unknownContentTypeIs415NamingWhatIsAccepted() {
    let exchange = send("/test.Echo/Echo", contentType: "text/plain", body: [])
    #expect(exchange.responses[0].status == 415)
    #expect(exchange.responses[0].headers["accept-post"] == WebRPCProtocol.acceptedContentTypes)
  }

  @Test func connectTimeoutEndsTheCallWithDeadlineExceeded() {
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/connect+proto", body: Self.framed("x"),
      headers: [("connect-timeout-ms", "50")])
    #expect(exchange.responses.isEmpty)
    scheduler.advance(by: .milliseconds(50))
    #expect(service.handlers[0].cancelled?.code == .deadlineExceeded)
    #expect(
      exchange.responses[0].body
        == Self.framed(
          #"{"error":{"code":"deadline_exceeded","message":"deadline exceeded"}}"#, flags: 0x02))
  }

  @Test func malformedTimeoutIsRefusedBeforeTheHandlerRuns() {
    let exchange = send(
      "/test.Echo/Echo", contentType: "application/proto", body: [],
      headers: [("connect-timeout-ms", "soon")])
    #expect(exchange.responses[0].status == 400)
    #expect(service.handlers.isEmpty)
  }

  @Test func anotherConnectProtocolVersionIsRefused() {
    let exchange = send(
      "/test.Echo/Echo", contentType: "application/proto", body: [],
      headers: [("connect-protocol-version", "2")])
    #expect(exchange.responses[0].status == 400)
    #expect(service.handlers.isEmpty)
  }

  @Test func gzipRequestBodyIsInflated() {
    let body = GzipDeflater().deflate(Array("packed".utf8))!
    let exchange = send(
      "/test.Echo/Echo", contentType: "application/proto", body: body,
      headers: [("content-encoding", "gzip")])
    #expect(exchange.responses[0].body == Array("packed".utf8))
  }

  @Test func metadataInAndOutAsHeadersAndUnaryTrailersAsTrailerFields() {
    let exchange = send(
      "/test.Echo/Metadata", contentType: "application/proto", body: [],
      headers: [("x-echo", "ping"), ("x-raw-bin", Base64.encode([9, 8]))])
    let headers = exchange.responses[0].headers
    #expect(headers["x-echo"] == "ping")
    #expect(headers["trailer-x-raw-bin"] == Base64.encode([9, 8]))
  }

  // MARK: Streams and the socket

  @Test func aSlowReadersOutputWaitsInTheCallsRecordAndGoesOutWhenDrained() {
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/connect+proto", body: Self.framed("x"))
    let call = service.handlers[0].call
    var drainedCalls = 0
    call.onOutboundDrained = { drainedCalls += 1 }
    exchange.pendingOutboundBytes = 1 << 20
    call.send(message: Array("late".utf8))
    #expect(exchange.streamed.isEmpty)
    #expect(call.pendingOutboundBytes == Self.framed("late").count)
    exchange.drain()
    #expect(exchange.streamed == Self.framed("late"))
    #expect(call.pendingOutboundBytes == 0)
    #expect(drainedCalls == 1)
  }

  @Test func endWaitsBehindHeldOutputAndFollowsIt() {
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/grpc-web", body: Self.framed("x"))
    let call = service.handlers[0].call
    exchange.pendingOutboundBytes = 1 << 20
    call.send(message: Array("a".utf8))
    call.finish(.ok)
    #expect(exchange.streamed == Self.framed("a") + Self.framed("grpc-status:0\r\n", flags: 0x80))
    #expect(exchange.streamFinished)
  }

  @Test func aStreamCutByTheServerStoppingEndsWithUnavailable() {
    // A stopping server's exchange tells the face, then ends the body.
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/connect+proto", body: Self.framed("x"))
    service.handlers[0].call.sendInitialMetadata(Metadata())
    exchange.cancel()
    #expect(
      exchange.streamed
        == Self.framed(
          #"{"error":{"code":"unavailable","message":"the server is shutting down"}}"#,
          flags: 0x02))
    #expect(service.handlers[0].cancelled != nil)
  }

  @Test func aPeerThatLeavesCancelsTheCall() {
    let exchange = send(
      "/test.Echo/Hold", contentType: "application/grpc-web", body: Self.framed("x"))
    exchange.cancel()
    #expect(service.handlers[0].cancelled?.code == .cancelled)
    #expect(service.handlers[0].call.isFinished)
    #expect(exchange.onCancel == nil)
  }

  @Test func connectErrorDetailsAreTheStatusAnyEntries() {
    // google.rpc.Status { code: 3, details: [Any { type_url, value: 0x0a 0x00 }] }
    let typeURL = Array("type.googleapis.com/google.rpc.BadRequest".utf8)
    let any: [UInt8] = [0x0A, UInt8(typeURL.count)] + typeURL + [0x12, 2, 0x0A, 0x00]
    let status: [UInt8] = [0x08, 3, 0x1A, UInt8(any.count)] + any
    let json = ConnectError.json(GRPCStatus(.invalidArgument, "bad", details: status))
    #expect(
      json["details"]
        == .array([
          .object([("type", .string("google.rpc.BadRequest")), ("value", .string("CgA"))])
        ]))
  }
}

/// A stand-in for a schema's JSON mapping: the message is the text of one
/// JSON string.
private struct QuotedTextCodec: WebRPCJSONCodec {
  func requestBinary(fromJSON json: UnsafeRawBufferPointer) throws(GRPCStatus) -> [UInt8] {
    guard json.count >= 2, json.first == UInt8(ascii: "\""), json.last == UInt8(ascii: "\"")
    else { throw GRPCStatus(.invalidArgument, "the body must be one JSON string") }
    return Array(json[1..<json.count - 1])
  }

  func responseJSON(fromBinary binary: UnsafeRawBufferPointer) throws(GRPCStatus) -> [UInt8] {
    [UInt8(ascii: "\"")] + Array(binary) + [UInt8(ascii: "\"")]
  }
}
