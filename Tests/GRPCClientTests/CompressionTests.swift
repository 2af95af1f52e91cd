import GRPCClient
import GRPCCore
import GRPCTransport
import Testing

/// A client with gzip compresses its requests and reads compressed
/// responses; one without it refuses a compressed response.
@Suite struct ClientCompressionTests {
  private func gzipPair() -> InMemoryPair {
    var client = ClientConfiguration()
    client.compression = .gzip
    var server = ServerConfiguration()
    server.compressResponses = true
    return InMemoryPair(client: client, server: server)
  }

  @Test func requestsAndResponsesTravelCompressed() {
    let pair = gzipPair()
    let message = [UInt8](repeating: 0x61, count: 10_000)
    let (call, handler) = pair.call("Echo")
    call.send(message)
    call.closeSend()

    var toServer: [UInt8] = []
    _ = pair.client.drainOutput(into: &toServer)
    // Headers and 10,000 bytes of one letter, gzipped: far under 10,000.
    #expect(toServer.count < 1_000)
    _ = toServer.withUnsafeBytes { pair.server.receive($0) }
    var toClient: [UInt8] = []
    _ = pair.server.drainOutput(into: &toClient)
    #expect(toClient.count < 1_000)
    _ = toClient.withUnsafeBytes { pair.client.receive($0) }
    pair.exchange()

    #expect(pair.service.handlers.first?.messages == [message])
    #expect(handler.messages == [message])
    #expect(handler.status == .ok)
  }

  @Test func aResponseThatInflatesPastTheLimitFailsTheCall() {
    var client = ClientConfiguration()
    client.compression = .gzip
    client.maxReceiveMessageBytes = 1_000
    var server = ServerConfiguration()
    server.compressResponses = true
    let pair = InMemoryPair(client: client, server: server)
    let (call, handler) = pair.call("Echo")
    call.send([UInt8](repeating: 0x61, count: 5_000))
    call.closeSend()
    pair.exchange()
    #expect(handler.messages.isEmpty)
    #expect(handler.status?.code == .resourceExhausted)
    #expect(handler.finishCount == 1)
  }

  @Test func withoutGzipTheServerAnswersUncompressed() {
    var server = ServerConfiguration()
    server.compressResponses = true
    let pair = InMemoryPair(server: server)
    let (call, handler) = pair.call("Echo")
    call.send(bytes("plain"))
    call.closeSend()
    pair.exchange()
    #expect(handler.texts == ["plain"])
    #expect(handler.status == .ok)
  }
}
