import CNGHTTP2
import GRPCCore
import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// `test.Zip`: Echo answers each request message (compressed when the call
/// negotiated it) and records whether it arrived compressed; Plain answers
/// the same but asks for the message to go out uncompressed; InPlace
/// answers it and then its reverse, each written in place
/// (`send(messageOfSize:)`), compressed when negotiated; Framed answers it
/// as a `FramedMessage`.
private final class ZipService: GRPCService, @unchecked Sendable {
  // @unchecked Sendable: tests drive it from one thread only.
  let serviceName = "test.Zip"
  let methodNames = ["Echo", "Plain", "InPlace", "Framed"]
  var received: [(bytes: [UInt8], compressed: Bool)] = []
  var cancelled: GRPCStatus?

  final class Handler: RPCHandler {
    let service: ZipService
    let call: ServerCall
    let compressReplies: Bool
    let inPlace: Bool
    let framed: Bool

    init(
      service: ZipService, call: ServerCall, compressReplies: Bool, inPlace: Bool, framed: Bool
    ) {
      self.service = service
      self.call = call
      self.compressReplies = compressReplies
      self.inPlace = inPlace
      self.framed = framed
    }

    func receive(message: [UInt8]) {
      Issue.record("the transport must report the compressed flag")
    }

    func receive(message: [UInt8], compressed: Bool) {
      service.received.append((message, compressed))
      if framed { return call.send(framed: FramedMessage(message)) }
      guard inPlace else { return call.send(message: message, compress: compressReplies) }
      for reply in [message, message.reversed()] {
        call.send(messageOfSize: reply.count) { buffer in buffer.copyBytes(from: reply) }
      }
    }

    func receiveEnd() { call.finish(.ok) }

    func cancel(_ reason: GRPCStatus) { service.cancelled = reason }
  }

  func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    Handler(
      service: self, call: call, compressReplies: method != "Plain", inPlace: method == "InPlace",
      framed: method == "Framed")
  }
}

private func makeZipConnection(
  configure: (inout ServerConfiguration) -> Void = { _ in }
) -> (InMemoryHTTP2Client, ZipService) {
  var configuration = ServerConfiguration()
  configure(&configuration)
  let service = ZipService()
  let connection = GRPCServerConnection(
    router: Router(services: [service]), configuration: configuration,
    scheduler: ManualScheduler(), outputReady: {})
  return (InMemoryHTTP2Client(server: connection), service)
}

private func gzip(_ bytes: [UInt8]) -> [UInt8] {
  GzipDeflater().deflate(bytes)!
}

private func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
  try? GzipInflater().inflate(bytes, limit: .max).get()
}

extension InMemoryHTTP2Client.Response {
  /// The body split into gRPC messages with their compressed flags.
  fileprivate var flaggedMessages: [(compressed: Bool, bytes: [UInt8])] {
    var out: [(Bool, [UInt8])] = []
    var index = 0
    while index + 5 <= body.count {
      let length =
        Int(body[index + 1]) << 24 | Int(body[index + 2]) << 16 | Int(body[index + 3]) << 8
        | Int(body[index + 4])
      out.append((body[index] == 1, Array(body[index + 5..<index + 5 + length])))
      index += 5 + length
    }
    return out
  }
}

private let zeros = [UInt8](repeating: 0, count: 50_000)

@Suite struct CompressionTests {
  /// `test.Zip/<method>` called twice on a server that compresses
  /// responses: by a client that accepts gzip, and by one that does not.
  private func answersWithAndWithoutGzip(method: String, request: [UInt8]) -> (
    gzip: InMemoryHTTP2Client.Response, identity: InMemoryHTTP2Client.Response
  ) {
    let (client, _) = makeZipConnection { $0.compressResponses = true }
    let path = "/test.Zip/\(method)"
    let gzipped = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: path, extra: [("grpc-accept-encoding", "gzip")]),
      body: framed(request))
    let plain = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: path), body: framed(request))
    client.exchange()
    return (client.responses[gzipped]!, client.responses[plain]!)
  }

  @Test func gzipRequestsAreInflatedAndReportedAsCompressed() {
    let (client, service) = makeZipConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-encoding", "gzip")]),
      body: framed(gzip(zeros), compressed: true) + framed([1, 2, 3]))
    client.exchange()
    #expect(service.received.map(\.compressed) == [true, false])
    #expect(service.received.map(\.bytes) == [zeros, [1, 2, 3]])
    #expect(client.responses[stream]!.grpcStatus == 0)
  }

  @Test func unsupportedEncodingIsUnimplementedAndNamesWhatIsAccepted() {
    let (client, service) = makeZipConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-encoding", "br")]),
      body: framed([1], compressed: true))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.grpcStatus == 12)
    #expect(response.grpcMessage?.contains("\"br\" is not supported") == true)
    #expect(response.header("grpc-accept-encoding") == "gzip,identity")
    #expect(service.received.isEmpty)
  }

  @Test func compressedFlagUnderIdentityEncodingIsInternal() {
    let (client, service) = makeZipConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-encoding", "identity")]),
      body: framed(gzip([1]), compressed: true))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 13)
    #expect(service.received.isEmpty)
  }

  @Test func corruptGzipIsInternal() {
    let (client, service) = makeZipConnection()
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-encoding", "gzip")]),
      body: framed(Array(gzip(zeros).dropLast(4)), compressed: true))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 13)
    #expect(client.responses[stream]!.grpcMessage?.contains("could not inflate") == true)
    #expect(service.received.isEmpty)
  }

  @Test func zipBombIsResourceExhaustedAfterInflating() {
    let (client, service) = makeZipConnection { $0.maxReceiveMessageBytes = 1 << 20 }
    // 8 MiB of zeros squeeze into about 8 KiB: far under the limit on the
    // wire, far over it inflated.
    let bomb = gzip([UInt8](repeating: 0, count: 8 << 20))
    #expect(bomb.count < 1 << 20)
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-encoding", "gzip")]),
      body: framed(bomb, compressed: true))
    client.exchange()
    #expect(client.responses[stream]!.grpcStatus == 8)
    #expect(client.responses[stream]!.grpcMessage?.contains("1048576 bytes") == true)
    #expect(service.received.isEmpty)
    #expect(service.cancelled?.code == .resourceExhausted)
  }

  @Test func inflaterStopsAtTheLimit() {
    let inflater = GzipInflater()
    let message = [UInt8](repeating: 7, count: 100_000)
    #expect(inflater.inflate(gzip(message), limit: 99_999) == .failure(.tooLarge))
    // The same inflater is reset and serves the next message.
    #expect(inflater.inflate(gzip(message), limit: 100_000) == .success(message))
    #expect(inflater.inflate(gzip(message) + [0], limit: .max) != .success(message))
  }

  @Test func responsesAreGzippedWhenConfiguredAndAccepted() {
    let (client, _) = makeZipConnection { $0.compressResponses = true }
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-accept-encoding", "identity, deflate, gzip")]),
      body: framed(zeros))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.header("grpc-encoding") == "gzip")
    #expect(response.flaggedMessages.map(\.compressed) == [true])
    #expect(response.flaggedMessages.first.flatMap { gunzip($0.bytes) } == zeros)
    #expect(response.body.count < zeros.count / 10)
  }

  /// A message framed once for many streams is still compressed for a
  /// stream that negotiated gzip, and sent as framed to one that did not.
  @Test func framedMessagesAreCompressedWhereNegotiated() {
    let (compressed, identity) = answersWithAndWithoutGzip(method: "Framed", request: zeros)
    #expect(compressed.flaggedMessages.map(\.compressed) == [true])
    #expect(compressed.flaggedMessages.first.flatMap { gunzip($0.bytes) } == zeros)
    #expect(identity.flaggedMessages.map(\.compressed) == [false])
    #expect(identity.messages == [zeros])
  }

  @Test func handlersCanSendOneMessageUncompressed() {
    let (client, _) = makeZipConnection { $0.compressResponses = true }
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Plain", extra: [("grpc-accept-encoding", "gzip")]),
      body: framed(zeros))
    client.exchange()
    let response = client.responses[stream]!
    #expect(response.header("grpc-encoding") == "gzip")
    #expect(response.flaggedMessages.map(\.compressed) == [false])
    #expect(response.messages == [zeros])
  }

  @Test func messagesWrittenInPlaceAreFramedAndCompressedLikeOthers() {
    let message = (0..<3000).map { UInt8(truncatingIfNeeded: $0 % 7) }
    let (compressed, uncompressed) = answersWithAndWithoutGzip(
      method: "InPlace", request: message)
    #expect(compressed.flaggedMessages.map(\.compressed) == [true, true])
    #expect(compressed.flaggedMessages.map { gunzip($0.bytes) } == [message, message.reversed()])
    #expect(compressed.grpcStatus == 0)
    #expect(uncompressed.flaggedMessages.map(\.compressed) == [false, false])
    #expect(uncompressed.messages == [message, message.reversed()])
    #expect(uncompressed.grpcStatus == 0)
  }

  @Test func responsesStayPlainUnlessBothSidesAgree() {
    let (client, _) = makeZipConnection { $0.compressResponses = true }
    let notAccepted = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-accept-encoding", "identity,deflate")]),
      body: framed(zeros))
    client.exchange()
    let (plainServer, _) = makeZipConnection()
    let notConfigured = plainServer.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Zip/Echo", extra: [("grpc-accept-encoding", "gzip")]),
      body: framed(zeros))
    plainServer.exchange()
    for response in [client.responses[notAccepted]!, plainServer.responses[notConfigured]!] {
      #expect(response.header("grpc-encoding") == nil)
      #expect(response.header("grpc-accept-encoding") == "gzip,identity")
      #expect(response.flaggedMessages.map(\.compressed) == [false])
      #expect(response.messages == [zeros])
    }
  }

  @Test func acceptEncodingListsAreParsedByToken() {
    #expect(CompressionAlgorithm.gzip.isAccepted(by: " identity ,\tgzip "))
    #expect(!CompressionAlgorithm.gzip.isAccepted(by: "gzipx,identity"))
    #expect(!CompressionAlgorithm.gzip.isAccepted(by: nil))
    #expect(CompressionAlgorithm.identity.isAccepted(by: nil))
    #expect(CompressionAlgorithm.forRequest(encoding: nil) == .identity)
    #expect(CompressionAlgorithm.forRequest(encoding: "gzip") == .gzip)
    #expect(CompressionAlgorithm.forRequest(encoding: "deflate") == nil)
  }
}
