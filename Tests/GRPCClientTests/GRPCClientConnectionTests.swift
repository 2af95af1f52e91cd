import GRPCClient
import GRPCCore
import GRPCTransport
import Testing

/// The client state machine against the real server state machine, in
/// memory: every call shape, both directions, no sockets.
@Suite struct GRPCClientConnectionTests {
  @Test func unaryCallGetsItsMessageHeadersAndOK() {
    let pair = InMemoryPair()
    var echoed = Metadata()
    echoed.add("x-echo", "hello there")
    let (call, handler) = pair.call("Echo", metadata: echoed)
    call.send(bytes("ping"))
    call.closeSend()
    pair.exchange()
    #expect(handler.texts == ["ping"])
    #expect(handler.status == .ok)
    #expect(handler.headers?["x-echo"] == .text("hello there"))
    #expect(handler.finishCount == 1)
    #expect(call.isFinished)
    #expect(pair.client.activeCallCount == 0)
  }

  @Test func unaryConvenienceChecksForExactlyOneMessage() throws {
    let pair = InMemoryPair()
    var response: ClientResponse?
    pair.client.unary(path: "/test.Echo/Echo", request: bytes("one")) { response = $0 }
    var empty: ClientResponse?
    pair.client.unary(path: "/test.Echo/Repeat", request: bytes("0")) { empty = $0 }
    pair.exchange()
    #expect(try response?.singleMessage() == bytes("one"))
    #expect(throws: GRPCStatus.self) { try empty?.singleMessage() }
    #expect(empty?.status == .ok)
  }

  @Test func errorStatusKeepsItsMessageAndDetails() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Fail")
    call.send(bytes("value: 7 is outside [0, 5] — 100% wrong"))
    call.closeSend()
    pair.exchange()
    #expect(handler.status?.code == .invalidArgument)
    #expect(handler.status?.message == "value: 7 is outside [0, 5] — 100% wrong")
    #expect(handler.status?.details == EchoService.failureDetails)
    #expect(handler.messages.isEmpty)
    // A trailers-only answer carries no separate headers.
    #expect(handler.headers == nil)
  }

  @Test func clientStreamingSendsEveryMessageBeforeTheAnswer() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Count")
    for index in 0..<5 { call.send(bytes("item \(index)")) }
    pair.exchange()
    #expect(handler.status == nil)
    call.send(bytes("last"))
    call.closeSend()
    pair.exchange()
    #expect(handler.texts == ["6"])
    #expect(handler.status == .ok)
    #expect(pair.service.handlers[0].messages.count == 6)
  }

  @Test func serverStreamingDeliversMessagesInOrder() {
    let pair = InMemoryPair()
    var received: [String] = []
    var response: ClientResponse?
    pair.client.serverStreaming(
      path: "/test.Echo/Repeat", request: bytes("300"),
      onMessage: { received.append(String(decoding: $0, as: UTF8.self)) },
      completion: { response = $0 })
    pair.exchange()
    #expect(received == (0..<300).map(String.init))
    #expect(response?.status == .ok)
    // Streamed messages are handed over, not kept a second time.
    #expect(response?.messages.isEmpty == true)
  }

  @Test func bidiStreamingEchoesBeforeTheRequestEnds() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Chat")
    call.send(bytes("one"))
    pair.exchange()
    #expect(handler.texts == ["one"])
    #expect(handler.status == nil)
    call.send(bytes("two"))
    pair.exchange()
    #expect(handler.texts == ["one", "two"])
    call.closeSend()
    pair.exchange()
    #expect(handler.status == .ok)
  }

  @Test func requestMetadataReachesTheServerTextAndBinary() {
    let pair = InMemoryPair()
    var metadata = Metadata()
    metadata.add("authorization", "Bearer s3cret")
    metadata.add("x-raw-bin", .binary([0, 1, 2, 250, 255]))
    let (call, handler) = pair.call("Echo", metadata: metadata)
    call.send([])
    call.closeSend()
    pair.exchange()
    let server = pair.service.handlers[0].call
    #expect(server.metadata["authorization"] == .text("Bearer s3cret"))
    #expect(server.metadata["x-raw-bin"] == .binary([0, 1, 2, 250, 255]))
    #expect(handler.headers?["authorization"] == .text("Bearer s3cret"))
    #expect(handler.trailers?["x-raw-bin"] == .binary([0, 1, 2, 250, 255]))
  }

  @Test func deadlineIsSentAndEnforcedLocally() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Hold", timeout: .seconds(2))
    call.send([])
    call.closeSend()
    pair.exchange()
    let server = pair.service.handlers[0]
    // The server learned the deadline from grpc-timeout.
    #expect(server.call.deadline != nil)
    #expect(server.call.deadline! >= pair.scheduler.now + .seconds(2))
    #expect(handler.status == nil)

    pair.scheduler.advance(by: .milliseconds(1999))
    #expect(handler.status == nil)
    pair.scheduler.advance(by: .milliseconds(1))
    pair.exchange()
    #expect(handler.status?.code == .deadlineExceeded)
    #expect(handler.finishCount == 1)
    #expect(server.cancelled != nil)
  }

  @Test func finishedCallCancelsItsDeadlineTimer() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Echo", timeout: .seconds(5))
    call.send(bytes("fast"))
    call.closeSend()
    pair.exchange()
    #expect(handler.status == .ok)
    pair.scheduler.advance(by: .seconds(10))
    #expect(handler.finishCount == 1)
    #expect(handler.status == .ok)
  }

  @Test func cancelResetsTheStreamAndTellsTheServer() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Chat")
    call.send(bytes("hi"))
    pair.exchange()
    call.cancel()
    #expect(handler.status?.code == .cancelled)
    pair.exchange()
    #expect(pair.service.handlers[0].cancelled?.code == .cancelled)
    // Nothing more arrives after a cancel.
    call.send(bytes("late"))
    pair.exchange()
    #expect(pair.service.handlers[0].messages == [bytes("hi")])
    #expect(handler.finishCount == 1)
  }

  @Test func unknownMethodIsUnimplemented() {
    let pair = InMemoryPair()
    var response: ClientResponse?
    pair.client.unary(path: "/test.Echo/Nope", request: []) { response = $0 }
    pair.exchange()
    #expect(response?.status.code == .unimplemented)
    #expect(response?.status.message == "unknown method Nope for service test.Echo")
  }

  @Test func serverAnsweringEarlyEndsTheCallWhileTheClientStillSends() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Fail")
    call.send(bytes("early"))
    pair.exchange()
    // The server answers only at the end of the request; end it, then keep
    // sending: the late messages are dropped, the status stays.
    call.closeSend()
    pair.exchange()
    call.send(bytes("ignored"))
    pair.exchange()
    #expect(handler.status?.code == .invalidArgument)
    #expect(handler.finishCount == 1)
  }

  @Test func oversizedResponseIsResourceExhausted() {
    var configuration = ClientConfiguration()
    configuration.maxReceiveMessageBytes = 1000
    let pair = InMemoryPair(client: configuration)
    var small: ClientResponse?
    var large: ClientResponse?
    pair.client.unary(path: "/test.Echo/Large", request: bytes("1000")) { small = $0 }
    pair.client.unary(path: "/test.Echo/Large", request: bytes("1001")) { large = $0 }
    pair.exchange()
    #expect(small?.status == .ok)
    #expect(small?.messages.first?.count == 1000)
    #expect(large?.status.code == .resourceExhausted)
  }

  @Test func largeMessagesCrossFlowControlWindowsBothWays() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Chat")
    let big = [UInt8]((0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0) })
    call.send(big)
    call.closeSend()
    pair.exchange()
    #expect(handler.status == .ok)
    #expect(handler.messages == [big])
  }

  @Test func readyForMoreMessagesFiresOnceTheQueueIsTaken() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Count")
    var sent = 0
    // A producer that sends only when HTTP/2 asks, ten messages in all.
    handler.onReady = {
      guard sent < 10 else {
        call.closeSend()
        return
      }
      sent += 1
      call.send(bytes("m\(sent)"))
    }
    pair.exchange()
    #expect(handler.readyCount >= 10)
    #expect(handler.texts == ["10"])
    #expect(handler.status == .ok)
  }

  @Test func pendingBytesCountWhatIsNotYetTaken() {
    let pair = InMemoryPair()
    let (call, _) = pair.call("Count")
    call.send(bytes("12345"))
    #expect(call.pendingOutboundBytes == 10)
    pair.exchange()
    #expect(call.pendingOutboundBytes == 0)
  }

  @Test func manyConcurrentCallsOnOneConnection() throws {
    // The scripted service keeps every handler (and so every call) for the
    // tests to inspect; the server's cap on calls in flight must not count
    // them here.
    var server = ServerConfiguration()
    server.maxCallsInFlight = 10_000
    let pair = InMemoryPair(server: server)
    var responses: [Int: ClientResponse] = [:]
    for index in 0..<1500 {
      pair.client.unary(path: "/test.Echo/Echo", request: bytes("\(index)")) {
        responses[index] = $0
      }
    }
    // Over the server's 1000 concurrent streams: nghttp2 holds the rest
    // back until earlier ones end.
    pair.exchange()
    #expect(responses.count == 1500)
    #expect(responses.values.allSatisfy { $0.status == .ok })
    #expect(try responses[1234]?.singleMessage() == bytes("1234"))
  }

  @Test func connectionLossFinishesLiveCallsAndFailsNewOnesLater() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Hold")
    call.send([])
    pair.exchange()
    pair.client.connectionLost(GRPCStatus(.unavailable, "gone"))
    #expect(handler.status == GRPCStatus(.unavailable, "gone"))
    #expect(!pair.client.isAlive)

    let (late, lateHandler) = pair.call("Echo")
    // Never inside makeCall: the caller may still be setting up.
    #expect(lateHandler.status == nil)
    pair.scheduler.advance(by: .zero)
    #expect(lateHandler.status == GRPCStatus(.unavailable, "gone"))
    #expect(late.isFinished)
    #expect(late.streamID == 0)
  }

  @Test func statusTheServerSendsLaterEndsAHeldCall() {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Hold", timeout: .seconds(1))
    call.send([])
    call.closeSend()
    pair.exchange()
    // A handler that answers on its own schedule, here with an error.
    pair.service.handlers[0].call.finish(GRPCStatus(.deadlineExceeded, "server says late"))
    pair.exchange()
    #expect(handler.status == GRPCStatus(.deadlineExceeded, "server says late"))
  }
}
