import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// Connections of one loop share a `ConnectionGroup`: one frame buffer for
/// nghttp2's output, one route cache. Each connection's frames must still
/// be its own, whatever the order the connections send in.
@Suite struct ConnectionGroupTests {
  private func connections(_ count: Int, service: EchoService) -> [InMemoryHTTP2Client] {
    let group = ConnectionGroup(
      router: Router(services: [service]), configuration: ServerConfiguration())
    return (0..<count).map { _ in
      InMemoryHTTP2Client(
        server: GRPCServerConnection(
          group: group, scheduler: ManualScheduler(), outputReady: {}),
        readsEagerly: true)
    }
  }

  @Test func connectionsSharingTheFrameBufferEachGetTheirOwnAnswers() {
    let service = EchoService()
    let clients = connections(3, service: service)
    #expect(clients.allSatisfy { $0.server.session.sharesFrameBuffer })
    var streams: [[Int32]] = Array(repeating: [], count: clients.count)
    // Large answers span many DATA frames, so the connections' output
    // interleaves frame by frame through the shared buffer.
    for round in 0..<4 {
      for (index, client) in clients.enumerated() {
        let message = [UInt8](repeating: UInt8(index * 16 + round), count: 40_000 + index)
        streams[index].append(
          client.start(
            headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
            body: framed(message)))
      }
      for client in clients { client.exchange() }
    }
    for (index, client) in clients.enumerated() {
      for (round, stream) in streams[index].enumerated() {
        let response = client.responses[stream]
        #expect(response?.grpcStatus == 0)
        #expect(
          response?.messages
            == [[UInt8](repeating: UInt8(index * 16 + round), count: 40_000 + index)])
      }
    }
  }

  @Test func anIdleConnectionTrimsAndServesCallsAfterwards() {
    let service = EchoService()
    let client = connections(1, service: service)[0]
    let held = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Hold"), body: framed([1]))
    client.exchange()
    // A call is open: only its spare outbound buffer goes, and the call
    // goes on.
    #expect(client.server.trimIdleMemory())
    service.handlers[0].call.send(message: [9])
    service.handlers[0].call.finish(.ok)
    client.exchange()
    #expect(client.responses[held]?.messages == [[9]])
    #expect(client.responses[held]?.grpcStatus == 0)
    #expect(client.server.trimIdleMemory())

    let echoed = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"), body: framed([7, 8]))
    client.exchange()
    #expect(client.responses[echoed]?.messages == [[7, 8]])
    #expect(client.server.trimIdleMemory())
  }

  /// Closed streams' outbound buffers are lent to the next ones, emptied:
  /// small ones only, and at most 64 KiB of them.
  @Test func outboundBuffersOfClosedStreamsAreLentEmptyAndWithinBounds() {
    let group = ConnectionGroup(
      router: Router(services: [EchoService()]), configuration: ServerConfiguration())
    var used: [UInt8] = []
    used.reserveCapacity(100)
    used.append(contentsOf: [1, 2, 3])
    group.giveBack(outbound: &used)
    #expect(used.capacity == 0)
    let lent = group.borrowOutboundBuffer()
    #expect(lent.isEmpty)
    #expect(lent.capacity >= 100)
    #expect(group.borrowOutboundBuffer().capacity == 0)

    var large = [UInt8](repeating: 0, count: GRPCServerConnection.keptOutboundCapacity + 1)
    group.giveBack(outbound: &large)
    #expect(group.borrowOutboundBuffer().capacity == 0)

    for _ in 0..<200 {
      var buffer: [UInt8] = []
      buffer.reserveCapacity(1000)
      group.giveBack(outbound: &buffer)
    }
    var keptBytes = 0
    while case let capacity = group.borrowOutboundBuffer().capacity, capacity > 0 {
      keptBytes += capacity
    }
    #expect(keptBytes > 60 << 10 && keptBytes <= 64 << 10)

    var spare: [UInt8] = []
    spare.reserveCapacity(100)
    group.giveBack(outbound: &spare)
    group.releaseSpareOutboundBuffers()
    #expect(group.borrowOutboundBuffer().capacity == 0)
  }

  /// Streams that share buffers this way still answer each with its own
  /// bytes.
  @Test func callsAfterClosedOnesGetTheirOwnAnswers() {
    let client = connections(1, service: EchoService())[0]
    for round in 0..<5 {
      let streams = (0..<50).map { index in
        client.start(
          headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"),
          body: framed([UInt8](repeating: UInt8(round * 50 + index), count: 10 + index)))
      }
      client.exchange()
      for (index, stream) in streams.enumerated() {
        #expect(
          client.responses[stream]?.messages
            == [[UInt8](repeating: UInt8(round * 50 + index), count: 10 + index)])
      }
    }
  }

  /// Routes are cached by the path's bytes, and the last one found is
  /// tried first; a cached route answers only its own path, repeated or not.
  @Test func routeCacheAnswersEachPathWithItsOwnRoute() {
    let group = ConnectionGroup(
      router: Router(services: [EchoService()]), configuration: ServerConfiguration())
    for _ in 0..<3 {
      guard case .found(_, "test.Echo", "Echo") = group.route(Array("/test.Echo/Echo".utf8)),
        case .found(_, "test.Echo", "Fail") = group.route(Array("/test.Echo/Fail".utf8)),
        case .found(_, "test.Echo", "Fail") = group.route(Array("/test.Echo/Fail".utf8)),
        case .found(_, "test.Echo", "Hold") = group.route(Array("/test.Echo/Hold".utf8)),
        case .unknownMethod("test.Echo", "Fai") = group.route(Array("/test.Echo/Fai".utf8)),
        case .unknownMethod("test.Echo", "Echoes") = group.route(
          Array("/test.Echo/Echoes".utf8)),
        case .unknownService("test.Ech") = group.route(Array("/test.Ech/Echo".utf8)),
        case .malformed = group.route(Array("test.Echo/Echo".utf8))
      else {
        Issue.record("a path got another path's route")
        return
      }
    }
  }
}
