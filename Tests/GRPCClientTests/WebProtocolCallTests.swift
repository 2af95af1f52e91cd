import GRPCCore
import Testing

@testable import GRPCClient

/// Calls that speak gRPC-Web or Connect streaming over HTTP/2, against the
/// real server and its web face in memory: the messages arrive as gRPC's
/// do, and the status comes from the body's last frame.
@Suite struct WebProtocolCallTests {
  static let protocols: [CallProtocol] = [.grpcWeb, .connectStreaming]

  @Test(arguments: protocols)
  func aServerStreamDeliversEveryMessageThenOK(callProtocol: CallProtocol) {
    let pair = InMemoryPair(servesWebProtocols: true)
    let (call, handler) = pair.call("Repeat", callProtocol: callProtocol)
    call.send(bytes("3"))
    call.closeSend()
    pair.exchange()
    #expect(handler.texts == ["0", "1", "2"])
    #expect(handler.status == .ok)
    #expect(handler.headers != nil)
    #expect(handler.finishCount == 1)
    #expect(pair.client.activeCallCount == 0)
  }

  /// nghttp2 hands DATA over as it arrives: here one byte at a time, so
  /// every message and the last frame are split across chunks.
  @Test(arguments: protocols)
  func framesSplitAcrossChunksAreReassembled(callProtocol: CallProtocol) {
    let pair = InMemoryPair(servesWebProtocols: true)
    let (call, handler) = pair.call("Repeat", callProtocol: callProtocol)
    call.send(bytes("12"))
    call.closeSend()
    pair.exchange(chunk: 1)
    #expect(handler.texts == (0..<12).map(String.init))
    #expect(handler.status == .ok)
  }

  @Test func grpcWebCarriesTheErrorWithItsDetails() {
    let pair = InMemoryPair(servesWebProtocols: true)
    let (call, handler) = pair.call("Fail", callProtocol: .grpcWeb)
    call.send(bytes("value: 7 is outside [0, 5]"))
    call.closeSend()
    pair.exchange()
    #expect(handler.status?.code == .invalidArgument)
    #expect(handler.status?.message == "value: 7 is outside [0, 5]")
    #expect(handler.status?.details == EchoService.failureDetails)
    #expect(handler.messages.isEmpty)
  }

  @Test func grpcWebTrailersCarryBinaryMetadata() {
    let pair = InMemoryPair(servesWebProtocols: true)
    var metadata = Metadata()
    metadata.add("x-raw-bin", .binary([0, 1, 0xFF]))
    let (call, handler) = pair.call("Echo", callProtocol: .grpcWeb, metadata: metadata)
    call.send(bytes("ping"))
    call.closeSend()
    pair.exchange()
    #expect(handler.texts == ["ping"])
    #expect(handler.status == .ok)
    #expect(handler.trailers?["x-raw-bin"] == .binary([0, 1, 0xFF]))
  }

  @Test func connectReadsTheErrorOfTheEndOfStreamMessage() {
    let pair = InMemoryPair(servesWebProtocols: true)
    // Connect streaming to a unary method is refused in the end-of-stream
    // message.
    let (call, handler) = pair.call("Echo", callProtocol: .connectStreaming)
    call.send(bytes("ping"))
    call.closeSend()
    pair.exchange()
    #expect(handler.status?.code == .unimplemented)
    #expect(handler.status?.message.contains("unary method") == true)
    #expect(handler.messages.isEmpty)
  }

  @Test(arguments: protocols)
  func aServerWithoutTheWebFaceIsNotTakenForOne(callProtocol: CallProtocol) {
    let pair = InMemoryPair()
    let (call, handler) = pair.call("Repeat", callProtocol: callProtocol)
    call.send(bytes("1"))
    call.closeSend()
    pair.exchange()
    #expect(handler.status?.code == .unknown)
    #expect(handler.status?.message == "unexpected HTTP status 415")
    #expect(handler.messages.isEmpty)
  }
}

/// The last frame read on its own, for what the web face never sends.
@Suite struct EndFrameTests {
  static func frame(flags: UInt8, _ text: String) -> [UInt8] {
    let payload = Array(text.utf8)
    let length = UInt32(payload.count)
    return [
      flags, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
      UInt8(length & 0xFF),
    ] + payload
  }

  @Test func grpcWebTrailerNamesAreCaseInsensitiveAndValuesTrimmed() {
    let (status, trailers) = CallProtocol.grpcWeb.status(
      fromEndFrame: Self.frame(
        flags: 0x80, "Grpc-Status: 5\r\ngrpc-message:no%20such%20widget\r\nX-Note: a\r\n"),
      headerLimit: 1024)
    #expect(status.code == .notFound)
    #expect(status.message == "no such widget")
    #expect(trailers["x-note"] == .text("a"))
  }

  @Test func connectEndOfStreamCarriesCodeMessageAndMetadata() {
    let (status, trailers) = CallProtocol.connectStreaming.status(
      fromEndFrame: Self.frame(
        flags: 0x02,
        #"{"error":{"code":"canceled","message":"bye"},"metadata":{"x-a":["1","2"],"x-b-bin":["AAH/"]}}"#
      ),
      headerLimit: 1024)
    #expect(status.code == .cancelled)
    #expect(status.message == "bye")
    #expect(trailers.values(for: "x-a") == [.text("1"), .text("2")])
    #expect(trailers["x-b-bin"] == .binary([0, 1, 0xFF]))
    let (ok, _) = CallProtocol.connectStreaming.status(
      fromEndFrame: Self.frame(flags: 0x02, "{}"), headerLimit: 1024)
    #expect(ok == .ok)
  }

  @Test func aLastFrameCutShortOrFollowedByMoreIsAnError() {
    let whole = Self.frame(flags: 0x80, "grpc-status:0\r\n")
    for frame in [Array(whole.dropLast()), whole + [0], Array(whole.prefix(3))] {
      let (status, _) = CallProtocol.grpcWeb.status(fromEndFrame: frame, headerLimit: 1024)
      #expect(status.code == .internal)
    }
    let (unknown, _) = CallProtocol.connectStreaming.status(
      fromEndFrame: Self.frame(flags: 0x02, #"{"error":{"code":"nope"}}"#), headerLimit: 1024)
    #expect(unknown.code == .unknown)
    let (notJSON, _) = CallProtocol.connectStreaming.status(
      fromEndFrame: Self.frame(flags: 0x02, "{"), headerLimit: 1024)
    #expect(notJSON.code == .internal)
  }
}
