import Testing

@testable import GRPCTransport

/// While limited, a connection lets each stream's peer send at most 64 KiB
/// ahead of what the server has read, however much was announced.
@Suite struct InboundBacklogTests {
  private let chunk = framed([UInt8](repeating: 7, count: 100_000))
  private let limit = Int32(GRPCServerConnection.limitedReceiveWindow)

  private func upload(_ client: InMemoryHTTP2Client, on stream: Int32, megabytes: Int) {
    for _ in 0..<(megabytes * 10) {
      client.upload(chunk, on: stream, end: false)
      client.exchange()
    }
  }

  private func openCollect(_ client: InMemoryHTTP2Client) -> Int32 {
    client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Collect"), body: [], end: false)
  }

  @Test func aLimitedStreamMaySendOnlyTheSmallWindowAhead() {
    let (client, service, _) = makeConnection()
    let stream = openCollect(client)
    client.exchange()
    upload(client, on: stream, megabytes: 1)
    #expect(client.sendWindow(of: stream) > 512 << 10)

    client.server.limitInboundBacklog(true)
    // The credit already granted is used up first; nothing is refused.
    upload(client, on: stream, megabytes: 2)
    #expect(client.sendWindow(of: stream) <= limit)
    #expect(client.sendWindow(of: stream) > 0)

    client.server.limitInboundBacklog(false)
    client.exchange()
    #expect(client.sendWindow(of: stream) > 512 << 10)
    client.upload([], on: stream, end: true)
    client.exchange()
    #expect(service.handlers[0].messages.count == 30)
    #expect(client.responses[stream]!.grpcStatus == 0)
  }

  @Test func streamsOpenedWhileLimitedStartLimited() {
    let (client, _, _) = makeConnection()
    client.exchange()
    client.server.limitInboundBacklog(true)
    let stream = openCollect(client)
    client.exchange()
    upload(client, on: stream, megabytes: 2)
    #expect(client.sendWindow(of: stream) <= limit)
  }

  /// nghttp2 moves every open stream's window by the announced initial
  /// window when the client acknowledges the server's SETTINGS; a limit
  /// set before that is set again then.
  @Test func theLimitHoldsAcrossTheSettingsAcknowledgement() {
    let (client, _, _) = makeConnection()
    let stream = openCollect(client)
    // The request reaches the server before the client has seen (and
    // acknowledged) the server's SETTINGS.
    client.sendPending()
    client.server.limitInboundBacklog(true)
    client.exchange()
    upload(client, on: stream, megabytes: 2)
    #expect(client.sendWindow(of: stream) <= limit)
  }
}
