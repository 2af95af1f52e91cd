import CNGHTTP2
import GRPCCore
import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// Runs the clock to `margin` short of `deadline` (counted from now), where
/// the connection must still be open and have sent no new GOAWAY, then on
/// to the deadline; returns the GOAWAY sent then, if one was.
private func goAwayAtDeadline(
  _ client: InMemoryHTTP2Client, _ scheduler: ManualScheduler, after deadline: Duration,
  margin: Duration, sourceLocation: SourceLocation = #_sourceLocation
) -> InMemoryHTTP2Client.GoAway? {
  let sent = client.goAways.count
  scheduler.advance(by: deadline - margin)
  client.exchange()
  #expect(client.goAways.count == sent, sourceLocation: sourceLocation)
  #expect(client.server.isAlive, sourceLocation: sourceLocation)
  scheduler.advance(by: margin)
  client.exchange()
  return client.goAways.count > sent ? client.goAways.last : nil
}

@Suite struct IdleTimeoutTests {
  @Test func connectionWithoutStreamsIsClosedAfterTheIdleTimeout() {
    let (client, _, scheduler) = makeConnection { $0.idleTimeout = .seconds(60) }
    client.exchange()
    _ = goAwayAtDeadline(client, scheduler, after: .seconds(60), margin: .seconds(1))
    #expect(
      client.goAways == [
        .init(lastStreamID: 0, errorCode: NGHTTP2_NO_ERROR.rawValue, debug: "max_idle")
      ])
    #expect(!client.server.isAlive)
  }

  @Test func idleTimeCountsFromTheLastStream() {
    let (client, _, scheduler) = makeConnection { $0.idleTimeout = .seconds(60) }
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    scheduler.advance(by: .seconds(120))
    client.exchange()
    #expect(client.goAways.isEmpty)
    client.reset(stream)
    client.exchange()
    let goAway = goAwayAtDeadline(client, scheduler, after: .seconds(60), margin: .seconds(1))
    #expect(goAway?.debug == "max_idle")
  }

  @Test func noIdleTimeoutKeepsTheConnection() {
    let (client, _, scheduler) = makeConnection { $0.idleTimeout = nil }
    client.exchange()
    scheduler.advance(by: .seconds(86_400))
    client.exchange()
    #expect(client.goAways.isEmpty)
    #expect(client.server.isAlive)
  }
}

@Suite struct WriteStallTests {
  /// A reader whose HTTP/2 windows stay shut.
  private func stalledStream(stallTimeout: Duration = .seconds(60)) -> (
    InMemoryHTTP2Client, ServerCall, ManualScheduler, Int32
  ) {
    let (client, service, scheduler) = makeConnection(readsEagerly: false) {
      $0.writeStallTimeout = stallTimeout
    }
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]))
    client.exchange()
    let call = service.handlers[0].call
    call.send(message: [UInt8](repeating: 7, count: 200_000))
    client.exchange()
    return (client, call, scheduler, stream)
  }

  @Test func peerHoldingItsWindowShutIsClosed() {
    let (client, call, scheduler, _) = stalledStream()
    #expect(call.pendingOutboundBytes > 0)
    // The clock starts once the first window's worth is out and the rest
    // waits for the peer.
    #expect(client.goAways.isEmpty)
    let goAway = goAwayAtDeadline(client, scheduler, after: .seconds(60), margin: .seconds(1))
    #expect(goAway?.errorCode == NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    #expect(goAway?.debug.hasPrefix("write stalled") == true)
    #expect(!client.server.isAlive)
  }

  @Test func duringShutdownAPeerThatTakesNothingGetsOneSecond() {
    let (client, call, scheduler, _) = stalledStream()
    scheduler.advance(by: .seconds(30))
    client.server.beginShutdown()
    // Its trailers would wait behind data it does not read.
    call.finish(GRPCStatus(.unavailable, "the server is shutting down"))
    client.exchange()
    let goAway = goAwayAtDeadline(
      client, scheduler, after: .seconds(1), margin: .milliseconds(100))
    // Not the peer's fault, so not ENHANCE_YOUR_CALM.
    #expect(goAway?.errorCode == NGHTTP2_NO_ERROR.rawValue)
    #expect(goAway?.debug.contains("took no response data") == true)
    #expect(!client.server.isAlive)
  }

  /// Takes what the stalled stream has, a pause at a time, six times;
  /// returns the response so far.
  private func readSlowly(
    _ client: InMemoryHTTP2Client, _ scheduler: ManualScheduler, _ stream: Int32,
    pausing pause: Duration
  ) -> InMemoryHTTP2Client.Response {
    for _ in 0..<6 {
      scheduler.advance(by: pause)
      client.consumeAll()
      client.exchange()
    }
    return client.responses[stream]!
  }

  @Test func duringShutdownAReaderThatKeepsTakingIsWaitedFor() {
    let (client, call, scheduler, stream) = stalledStream()
    client.server.beginShutdown()
    call.finish(.ok)
    let response = readSlowly(client, scheduler, stream, pausing: .milliseconds(900))
    #expect(response.body.count == 200_005)
    #expect(response.grpcStatus == 0)
  }

  @Test func slowReaderThatKeepsTakingIsServed() {
    let (client, call, scheduler, stream) = stalledStream()
    call.finish(.ok)
    let response = readSlowly(client, scheduler, stream, pausing: .seconds(50))
    #expect(client.goAways.isEmpty)
    #expect(response.body.count == 200_005)
    #expect(response.grpcStatus == 0)
  }

  @Test func socketThatTakesNothingIsAbandoned() {
    let (client, _, scheduler) = makeConnection { $0.writeStallTimeout = .seconds(30) }
    client.exchange()
    client.server.socketFlushed(bytesWritten: 0, backlog: 4096)
    scheduler.advance(by: .seconds(29))
    #expect(!client.server.abandoned)
    scheduler.advance(by: .seconds(1))
    #expect(client.server.abandoned)
    #expect(!client.server.isAlive)
  }

  @Test func socketThatTakesSomethingEachPeriodIsKept() {
    let (client, _, scheduler) = makeConnection { $0.writeStallTimeout = .seconds(30) }
    client.exchange()
    client.server.socketFlushed(bytesWritten: 0, backlog: 4096)
    for _ in 0..<5 {
      scheduler.advance(by: .seconds(20))
      client.server.socketFlushed(bytesWritten: 100, backlog: 4096)
    }
    #expect(!client.server.abandoned)
    client.server.socketFlushed(bytesWritten: 4096, backlog: 0)
    scheduler.advance(by: .seconds(120))
    #expect(!client.server.abandoned)
  }
}
