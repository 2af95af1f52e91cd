import GRPCCore
import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// One event framed once for many subscribers: a stream with nothing else
/// queued sends the shared bytes themselves, and nothing a stream does
/// afterwards changes them for the others.
@Suite struct FramedMessageTests {
  /// `count` calls the Echo service holds open on one connection.
  private func heldCalls(_ count: Int) -> (InMemoryHTTP2Client, [Int32], [ServerCall]) {
    let (client, service, _) = makeConnection()
    let streams = (0..<count).map { _ in
      client.start(
        headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]),
        end: false)
    }
    client.exchange()
    return (client, streams, service.handlers.map(\.call))
  }

  private func storage(of bytes: [UInt8]) -> UnsafeRawPointer? {
    bytes.withUnsafeBytes { $0.baseAddress }
  }

  @Test func anIdleStreamQueuesTheSharedBytesThemselves() {
    let (client, streams, calls) = heldCalls(3)
    let event = FramedMessage([7, 7, 7, 7])
    for call in calls { call.send(framed: event) }
    for stream in streams {
      #expect(storage(of: client.server.streams[stream]!.outbound) == storage(of: event.bytes))
    }
    client.exchange()
    for stream in streams {
      #expect(client.responses[stream]!.messages == [[7, 7, 7, 7]])
      // Dropped once sent: a stream never keeps another stream's bytes.
      #expect(client.server.streams[stream]!.outbound.capacity == 0)
      #expect(!client.server.streams[stream]!.outboundIsShared)
    }
  }

  @Test func messagesQueuedBehindASharedOneGoOutInOrderAndLeaveItIntact() {
    let (client, streams, calls) = heldCalls(2)
    let first = FramedMessage([1, 2, 3])
    let third = FramedMessage([9])
    calls[0].send(framed: first)
    calls[0].send(message: [4, 5])
    calls[0].send(framed: third)
    calls[1].send(framed: first)
    #expect(first.bytes == FramedMessage([1, 2, 3]).bytes)
    client.exchange()
    #expect(client.responses[streams[0]]!.messages == [[1, 2, 3], [4, 5], [9]])
    #expect(client.responses[streams[1]]!.messages == [[1, 2, 3]])
    #expect(first.bytes == FramedMessage([1, 2, 3]).bytes)
  }

  /// A stream whose own buffer is replaced by shared bytes gives it to the
  /// connection's group for the next stream that needs one.
  @Test func aStreamsOwnBufferGoesBackToTheGroup() {
    let (client, streams, calls) = heldCalls(1)
    calls[0].send(message: [1])
    client.exchange()
    #expect(client.server.streams[streams[0]]!.outbound.capacity > 0)
    let spare = client.server.group.spareOutboundBuffers.count
    calls[0].send(framed: FramedMessage([2]))
    #expect(client.server.group.spareOutboundBuffers.count == spare + 1)
    client.exchange()
    #expect(client.responses[streams[0]]!.messages == [[1], [2]])
  }

  @Test func aStreamResetWhileHoldingSharedBytesLeavesThemForTheOthers() {
    let (client, streams, calls) = heldCalls(2)
    let event = FramedMessage([5, 5])
    calls[0].send(framed: event)
    calls[1].send(framed: event)
    client.reset(streams[0])
    client.exchange()
    #expect(client.server.streams[streams[0]] == nil)
    #expect(client.responses[streams[1]]!.messages == [[5, 5]])
    #expect(event.bytes == FramedMessage([5, 5]).bytes)
  }
}
