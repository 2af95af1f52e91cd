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

  /// Routes are cached by the path's bytes; a cached route answers only
  /// its own path.
  @Test func routeCacheAnswersEachPathWithItsOwnRoute() {
    let group = ConnectionGroup(
      router: Router(services: [EchoService()]), configuration: ServerConfiguration())
    for _ in 0..<3 {
      guard case .found(_, "test.Echo", "Echo") = group.route(Array("/test.Echo/Echo".utf8)),
        case .found(_, "test.Echo", "Fail") = group.route(Array("/test.Echo/Fail".utf8)),
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
