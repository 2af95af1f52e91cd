import CNGHTTP2
import GRPCCore
import Testing

@testable import GRPCTransport

@Suite struct GRPCServerConnectionTests {
  @Test func unaryCallEchoesAndEndsWithOKTrailers() {
    let (client, _, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
      body: framed(Array("hello".utf8)))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.header(":status") == "200")
    #expect(response.header("content-type") == "application/grpc")
    #expect(response.messages == [Array("hello".utf8)])
    #expect(response.trailer("grpc-status") == "0")
    #expect(response.closed)
  }

  @Test func grpcPlusProtoContentTypeIsAccepted() {
    let (client, _, _) = makeConnection()
    var headers = InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo")
    headers[4] = ("content-type", "application/grpc+proto")
    let stream = client.start(headers: headers, body: framed([7]))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 0)
    #expect(client.responses[stream]!.messages == [[7]])
  }

  @Test func unknownServiceAndMethodAreUnimplemented() {
    let (client, _, _) = makeConnection()
    let noService = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/nope.Service/Echo"), body: framed([]))
    let noMethod = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Nope"), body: framed([]))
    client.exchange()
    #expect(client.responses[noService]!.grpcStatus == 12)
    #expect(client.responses[noService]!.grpcMessage == "unknown service nope.Service")
    #expect(client.responses[noMethod]!.grpcStatus == 12)
    #expect(client.responses[noMethod]!.header(":status") == "200")
  }

  @Test func wrongContentTypeGets415WithProblemBody() {
    let (client, service, _) = makeConnection()
    var headers = InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo")
    headers[4] = ("content-type", "text/plain")
    let stream = client.start(headers: headers, body: Array("hi".utf8))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.header(":status") == "415")
    #expect(response.header("content-type") == "application/problem+json")
    #expect(String(decoding: response.body, as: UTF8.self).contains("\"status\":415"))
    #expect(service.handlers.isEmpty)
  }

  @Test func nonPostGets405() {
    let (client, _, _) = makeConnection()
    var headers = InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo")
    headers[0] = (":method", "PUT")
    let stream = client.start(headers: headers)
    client.exchange()
    #expect(client.responses[stream]!.header(":status") == "405")
  }

  @Test func malformedTimeoutAndBinaryHeaderGet400() {
    let (client, _, _) = makeConnection()
    let badTimeout = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Echo", extra: [("grpc-timeout", "12x")]), body: framed([]))
    let badBinary = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Echo", extra: [("x-raw-bin", "!!!")]), body: framed([]))
    client.exchange()
    #expect(client.responses[badTimeout]!.header(":status") == "400")
    #expect(client.responses[badBinary]!.header(":status") == "400")
  }

  @Test func errorStatusCarriesPercentEncodedMessageAndDetails() {
    let (client, _, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Fail"),
      body: framed(Array("id: \"é\" 100% wrong".utf8)))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.grpcStatus == 3)
    #expect(response.grpcMessage == "id: \"%C3%A9\" 100%25 wrong")
    #expect(response.header("grpc-status-details-bin") == "AQID+g")
    #expect(response.body.isEmpty)
  }

  /// nghttp2 sends no header block over 64 KiB; it used to drop such
  /// trailers and leave the stream open, the client waiting for its deadline.
  @Test func trailersTooLargeToSendResetTheStream() {
    let (client, _, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Fail"),
      body: framed(Array(String(repeating: "x", count: 70_000).utf8)))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.resetCode == NGHTTP2_INTERNAL_ERROR.rawValue)
    #expect(response.closed)
    #expect(response.grpcStatus == nil)
  }

  @Test func messagesSplitAcrossFramesAndManyInOneFrame() {
    let (client, service, _) = makeConnection()
    let three = framed([1]) + framed([2, 2]) + framed([3, 3, 3])
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Collect"),
      body: three, end: false)
    client.exchange()
    #expect(service.handlers[0].messages == [[1], [2, 2], [3, 3, 3]])
    let big = framed([UInt8](repeating: 9, count: 100_000))
    client.upload(Array(big[0..<3]), on: stream, end: false)
    client.exchange()
    #expect(service.handlers[0].messages.count == 3)
    client.upload(Array(big[3...]), on: stream, end: true)
    client.exchange()
    #expect(service.handlers[0].messages.count == 4)
    #expect(service.handlers[0].messages[3].count == 100_000)
    #expect(client.responses[stream]!.messages == [Array("4".utf8)])
    #expect(client.responses[stream]!.grpcStatus == 0)
  }

  @Test func oversizedMessageIsResourceExhaustedOnTheAnnouncedLength() {
    let (client, service, _) = makeConnection { $0.maxReceiveMessageBytes = 1000 }
    // Only the prefix is sent: the length alone must be enough to refuse.
    let prefix: [UInt8] = [0, 0, 0, 0x03, 0xE9]
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Collect"), body: prefix,
      end: false)
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 8)
    #expect(service.handlers[0].cancelled?.code == .resourceExhausted)
  }

  @Test func compressedFlagWithoutEncodingIsInternal() {
    let (client, _, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
      body: framed([1], compressed: true))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 13)
  }

  @Test func requestEndingInsideAMessageIsInternal() {
    let (client, _, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
      body: Array(framed([1, 2, 3]).dropLast()))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 13)
  }

  @Test func deadlinePassingEndsTheCallAndTellsTheHandler() {
    let (client, service, scheduler) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Hold", extra: [("grpc-timeout", "100m")]),
      body: framed([1]), end: false)
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == nil)
    scheduler.advance(by: .milliseconds(99))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == nil)
    scheduler.advance(by: .milliseconds(1))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 4)
    #expect(service.handlers[0].cancelled?.code == .deadlineExceeded)
    // The status travels in the trailers; the client, still sending, is then
    // told to stop (the stream closes though the client never ended it)
    // with NO_ERROR, an error code that cannot mask that status.
    #expect(client.responses[stream]!.closed)
    #expect(client.responses[stream]!.resetCode == nil)
  }

  @Test func finishedCallCancelsItsDeadlineTimer() {
    // Only the deadline timer: the connection's own timers are off.
    let (client, _, scheduler) = makeConnection {
      $0.idleTimeout = nil
      $0.writeStallTimeout = nil
    }
    client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Echo", extra: [("grpc-timeout", "5S")]), body: framed([1]))
    client.exchange()
    #expect(scheduler.pendingTimers == 0)
  }

  @Test func clientResetCancelsTheHandler() {
    let (client, service, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    client.reset(stream)
    client.exchange()
    #expect(service.handlers[0].cancelled?.code == .cancelled)
    #expect(client.server.openStreamCount == 0)
  }

  @Test func connectionLossCancelsEveryLiveCall() {
    let (client, service, _) = makeConnection()
    for _ in 0..<3 {
      client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
        end: false)
    }
    client.exchange()
    client.server.connectionLost()
    #expect(service.handlers.allSatisfy { $0.cancelled?.code == .unavailable })
  }

  @Test func metadataReachesHandlersAndComesBack() {
    let (client, service, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Metadata",
        extra: [("x-echo", "value"), ("x-raw-bin", "AAEC/w=="), ("grpc-trace-bin", "AA")]),
      body: framed([]))
    client.exchange()
    let call = service.handlers[0].call
    #expect(call.metadata["x-echo"] == .text("value"))
    #expect(call.metadata["x-raw-bin"] == .binary([0, 1, 2, 255]))
    #expect(call.metadata["grpc-trace-bin"] == nil)
    #expect(call.metadata["content-type"] == nil)
    #expect(client.responses[stream]!.header("x-echo") == "value")
    #expect(client.responses[stream]!.trailer("x-raw-bin") == "AAEC/w")
  }

  @Test func garbagePrefaceIsFatalForTheConnection() {
    let (client, _, _) = makeConnection()
    #expect(client.sendRaw(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == false)
  }

  @Test func manyConcurrentStreamsAreServed() {
    let (client, _, _) = makeConnection()
    let streams = (0..<200).map { index in
      client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
        body: framed([UInt8(index % 256)]))
    }
    client.exchange()
    for (index, stream) in streams.enumerated() {
      #expect(client.responses[stream]!.messages == [[UInt8(index % 256)]])
    }
  }
}

@Suite struct OutboundDrainTests {
  /// A stream whose handler sends one message each time the transport says
  /// it drained: the handler is asked for more only as fast as HTTP/2 takes it.
  @Test func drainedCallbackPullsMessagesAsFlowControlAllows() {
    let (client, service, _) = makeConnection()
    let (stream, call) = holdCall(client, service)
    var produced = 0
    call.onOutboundDrained = {
      guard produced < 5 else { return call.finish(.ok) }
      produced += 1
      call.send(message: [UInt8(produced)])
    }
    call.sendInitialMetadata(Metadata())
    client.exchange()
    #expect(client.responses[stream]!.messages == [[1], [2], [3], [4], [5]])
    #expect(client.responses[stream]!.grpcStatus == 0)
  }

  @Test func pendingBytesCountWhatFlowControlHoldsBack() {
    let (client, service, _) = makeConnection(readsEagerly: false)
    let (stream, call) = holdCall(client, service)
    // The client's default stream window is 65,535 bytes: the rest waits.
    call.send(message: [UInt8](repeating: 7, count: 100_000))
    client.exchange()
    #expect(call.pendingOutboundBytes == 100_005 - 65_535)
    var drained = 0
    call.onOutboundDrained = { drained += 1 }
    client.consumeAll()
    client.exchange()
    #expect(call.pendingOutboundBytes == 0)
    #expect(client.responses[stream]!.body.count == 100_005)
    #expect(drained >= 1)
  }

  /// A handler that holds nothing back is not asked when its stream runs
  /// dry; once it holds something back again, it is.
  @Test func aHandlerHoldingNothingBackIsNotAsked() {
    let (client, service, _) = makeConnection()
    let (stream, call) = holdCall(client, service)
    var drained = 0
    call.onOutboundDrained = { drained += 1 }
    call.sendInitialMetadata(Metadata())
    client.exchange()
    let askedAtStart = drained
    call.holdsBack = false
    call.send(message: [1])
    client.exchange()
    #expect(drained == askedAtStart)
    call.holdsBack = true
    call.send(message: [2])
    client.exchange()
    #expect(drained == askedAtStart + 1)
    #expect(client.responses[stream]!.messages == [[1], [2]])
  }

  /// A Hold call whose request is in: its stream and its call.
  private func holdCall(_ client: InMemoryHTTP2Client, _ service: EchoService) -> (
    Int32, ServerCall
  ) {
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: true)
    client.exchange()
    return (stream, service.handlers[0].call)
  }
}
