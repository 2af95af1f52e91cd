import Testing

@testable import GRPCTransport

/// A long-lived stream must not hold, for its whole life, a buffer sized
/// by its largest burst.
@Suite struct OutboundBufferTests {
  @Test func aDrainedStreamKeepsASmallBufferAndGivesALargeOneBack() {
    let (client, service, _) = makeConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
      end: false)
    client.exchange()
    let call = service.handlers[0].call

    call.send(message: [UInt8](repeating: 1, count: 100))
    client.exchange()
    let small = client.server.streams[stream]!.outbound
    #expect(small.isEmpty)
    #expect(small.capacity > 0)

    call.send(message: [UInt8](repeating: 2, count: 200_000))
    client.exchange()
    #expect(client.server.streams[stream]!.pendingOutboundBytes == 0)
    #expect(
      client.server.streams[stream]!.outbound.capacity <= GRPCServerConnection.keptOutboundCapacity)
    #expect(client.responses[stream]!.messages.map(\.count) == [100, 200_000])
  }
}
