import CNGHTTP2
import Testing

@testable import GRPCTransport

/// What one connection may hold: bytes for a peer that does not read, parts
/// of request messages, calls whose handlers still work.
@Suite struct BufferLimitTests {
  private func holdCall(_ client: InMemoryHTTP2Client, _ service: EchoService) -> (
    Int32, ServerCall
  ) {
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]))
    client.exchange()
    return (stream, service.handlers.last!.call)
  }

  @Test func streamOverItsShareIsResetAndItsHandlerTold() {
    let (client, service, _) = makeConnection(readsEagerly: false) {
      $0.maxStreamBufferBytes = 100_000
    }
    let (stream, call) = holdCall(client, service)
    call.send(message: [UInt8](repeating: 1, count: 60_000))
    call.send(message: [UInt8](repeating: 2, count: 60_000))
    client.exchange()
    #expect(client.responses[stream]!.resetCode == NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    #expect(service.handlers[0].cancelled?.code == .resourceExhausted)
    #expect(service.handlers[0].cancelled?.message.contains("not reading") == true)
    #expect(call.isFinished)
    // The connection and its other streams carry on.
    #expect(client.server.isAlive)
    #expect(client.server.bufferedBytes == 0)
    let next = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"), body: framed([9]))
    client.exchange()
    #expect(client.responses[next]!.messages == [[9]])
  }

  @Test func connectionOverItsBufferIsClosed() {
    let (client, service, _) = makeConnection(readsEagerly: false) {
      $0.maxStreamBufferBytes = 100_000
      $0.maxConnectionBufferBytes = 150_000
    }
    let calls = (0..<3).map { _ in holdCall(client, service).1 }
    for call in calls { call.send(message: [UInt8](repeating: 1, count: 60_000)) }
    client.exchange()
    #expect(client.goAways.last?.errorCode == NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    #expect(!client.server.isAlive)
  }

  @Test func partlyReceivedRequestsCountAgainstTheConnection() {
    let (client, _, _) = makeConnection { $0.maxConnectionBufferBytes = 100_000 }
    // Messages announced at 1 MB each, of which 60 KB arrive.
    let part = [0, 0, 0x10, 0, 0] + [UInt8](repeating: 5, count: 60_000)
    for _ in 0..<2 {
      client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Collect"), body: part,
        end: false)
      client.exchange()
    }
    #expect(client.goAways.last?.errorCode == NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    #expect(!client.server.isAlive)
  }

  @Test func accountingReturnsToZero() {
    let (client, service, _) = makeConnection()
    for index in 0..<20 {
      let stream = client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Collect"),
        body: framed([UInt8](repeating: 3, count: 30_000)) + [0, 0, 0, 1], end: false)
      client.exchange()
      if index.isMultiple(of: 2) {
        client.reset(stream)
      } else {
        client.upload([0], on: stream, end: true)
      }
      client.exchange()
    }
    #expect(service.handlers.count == 20)
    #expect(client.server.openStreamCount == 0)
    #expect(client.server.bufferedBytes == 0)
  }
}

@Suite struct CallsInFlightTests {
  @Test func resetStreamsWhoseWorkGoesOnCountAgainstTheCap() {
    let (client, service, _) = makeConnection { $0.maxCallsInFlight = 3 }
    for _ in 0..<3 {
      let stream = client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]))
      client.exchange()
      client.reset(stream)
      client.exchange()
    }
    #expect(client.server.openStreamCount == 0)
    // The service still holds the three calls: their work is not done.
    let refused = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]))
    client.exchange()
    #expect(client.responses[refused]!.resetCode == NGHTTP2_REFUSED_STREAM.rawValue)
    #expect(service.handlers.count == 3)
    // Once the work lets go of its calls, streams are served again.
    service.handlers.removeAll()
    let served = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"), body: framed([4]))
    client.exchange()
    #expect(client.responses[served]!.messages == [[4]])
  }

  @Test func callsAnsweredRightAwayDoNotAddUp() {
    let (client, service, _) = makeConnection { $0.maxCallsInFlight = 2 }
    for index in 0..<10 {
      let stream = client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
        body: framed([UInt8(index)]))
      client.exchange()
      #expect(client.responses[stream]!.messages == [[UInt8(index)]])
      service.handlers.removeAll()
    }
  }

  /// A client may open streams before it has seen the server's SETTINGS;
  /// those over the limit are refused, and can be retried.
  @Test func streamsOverTheConcurrencyLimitAreRefused() {
    let peer = RawPeer { $0.maxConcurrentStreams = 2 }
    peer.open()
    for stream: Int32 in [1, 3, 5] {
      peer.send(
        RawFrames.headers(stream: stream, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    }
    peer.read()
    #expect(peer.resetCode(stream: 5) == NGHTTP2_REFUSED_STREAM.rawValue)
    #expect(peer.resetCode(stream: 1) == nil)
    #expect(peer.service.handlers.count == 2)
    #expect(peer.server.isAlive)
  }

  /// Once the client has acknowledged the limit, going over it breaks the
  /// protocol, and libnghttp2 ends the connection.
  @Test func streamsOverAnAcknowledgedLimitEndTheConnection() {
    let peer = RawPeer { $0.maxConcurrentStreams = 2 }
    peer.open()
    peer.send(RawFrames.frame(type: 0x4, flags: 0x1))  // SETTINGS ACK
    for stream: Int32 in [1, 3, 5] {
      peer.send(
        RawFrames.headers(stream: stream, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    }
    peer.read()
    #expect(peer.goAways.last?.errorCode == NGHTTP2_PROTOCOL_ERROR.rawValue)
    #expect(peer.service.handlers.count == 2)
  }
}
