import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// A long-lived stream that has sent everything holds no DATA source in
/// nghttp2 and at most a small outbound buffer, none once its handler
/// expects a quiet spell: an idle subscription may stay open for hours.
/// What it sends later still goes out, in order.
@Suite struct OutboundBufferTests {
  /// A call the Echo service holds open, with its request still open too.
  private func heldStream() -> (InMemoryHTTP2Client, Int32, ServerCall) {
    let (client, service, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    return (client, stream, service.handlers[0].call)
  }

  /// Each send would ask the owner to flush; until the owner drains the
  /// connection, one request stands for all of them.
  @Test func sendsBeforeAFlushAskForItOnce() {
    final class Counter: @unchecked Sendable {
      // @unchecked Sendable: the test runs on one thread.
      var requests = 0
    }
    let counter = Counter()
    let service = EchoService()
    let server = GRPCServerConnection(
      router: Router(services: [service]), configuration: ServerConfiguration(),
      scheduler: ManualScheduler(), outputReady: { counter.requests += 1 })
    let client = InMemoryHTTP2Client(server: server, readsEagerly: true)
    _ = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    let call = service.handlers[0].call
    let before = counter.requests
    for round in 0..<5 { call.send(message: [UInt8(round)]) }
    #expect(counter.requests == before + 1)
    client.exchange()
    call.send(message: [9])
    #expect(counter.requests == before + 2)
  }

  @Test func aDrainedStreamDetachesAndKeepsOnlyASmallBuffer() {
    let (client, stream, call) = heldStream()
    let server = client.server

    call.send(message: [UInt8](repeating: 1, count: 100))
    client.exchange()
    #expect(server.streams[stream]!.body == .detached)
    #expect(server.streams[stream]!.outbound.capacity > 0)

    // Larger than the stream's window: it waits, attached, for the
    // client's WINDOW_UPDATEs, then lets go again.
    call.send(message: [UInt8](repeating: 2, count: 200_000))
    client.exchange()
    #expect(server.streams[stream]!.pendingOutboundBytes == 0)
    #expect(server.streams[stream]!.body == .detached)
    #expect(
      server.streams[stream]!.outbound.capacity <= GRPCServerConnection.keptOutboundCapacity)

    // Released at once when drained, or once what is queued is sent.
    call.releaseOutboundBuffer()
    #expect(server.streams[stream]!.outbound.capacity == 0)
    call.send(message: [3])
    call.releaseOutboundBuffer()
    #expect(server.streams[stream]!.pendingOutboundBytes > 0)
    client.exchange()
    #expect(server.streams[stream]!.outbound.capacity == 0)

    call.send(message: [4])
    call.finish(.ok)
    client.exchange()
    #expect(client.responses[stream]!.messages.map(\.count) == [100, 200_000, 1, 1])
    #expect(client.responses[stream]!.grpcStatus == 0)
    #expect(client.responses[stream]!.emptyDataFrames == 0)
  }

  /// Trailers for a stream with nothing left to send go out on their own,
  /// not behind an empty DATA frame.
  @Test func trailersAfterAnIdleSpellNeedNoDataFrame() {
    let (client, stream, call) = heldStream()
    call.send(message: [4])
    client.exchange()
    call.finish(.ok)
    client.exchange()
    #expect(client.responses[stream]!.messages == [[4]])
    #expect(client.responses[stream]!.grpcStatus == 0)
    #expect(client.responses[stream]!.emptyDataFrames == 0)
  }
}
