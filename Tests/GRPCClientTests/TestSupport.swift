import GRPCClient
import GRPCCore
import GRPCTransport
import GRPCTransportTesting

/// Records what a client call receives.
final class RecordingCallHandler: ClientCallHandler {
  var headers: Metadata?
  var messages: [[UInt8]] = []
  var status: GRPCStatus?
  var trailers: Metadata?
  var finishCount = 0
  var readyCount = 0
  var onMessage: (([UInt8]) -> Void)?
  var onReady: (() -> Void)?

  func received(headers: Metadata) {
    self.headers = headers
  }

  func received(message: [UInt8]) {
    messages.append(message)
    onMessage?(message)
  }

  func readyForMoreMessages() {
    readyCount += 1
    onReady?()
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    self.status = status
    self.trailers = trailers
    finishCount += 1
  }

  var texts: [String] { messages.map { String(decoding: $0, as: UTF8.self) } }
}

/// `test.Echo`, one method per call shape:
/// - Echo (unary): answers the request, with `x-echo` and `authorization`
///   copied into the response headers and `x-raw-bin` into the trailers.
/// - Fail (unary): INVALID_ARGUMENT with the request text as the message and
///   fixed details bytes.
/// - Count (client streaming): the number of messages, once the client
///   half-closes.
/// - Repeat (server streaming): the request is a count N; answers "0"..."N-1".
/// - Chat (bidi): echoes each message at once, ends OK when the client does.
/// - Hold: never answers.
/// - Large (unary): answers a message of the requested byte count.
final class EchoService: GRPCService, @unchecked Sendable {
  // @unchecked Sendable: `handlers` has one thread at a time: the test's own
  // in memory, or the server's single loop on loopback, where tests never
  // read it.
  let serviceName = "test.Echo"
  let methodNames = ["Echo", "Fail", "Count", "Repeat", "Chat", "Hold", "Large"]
  var handlers: [RecordingHandler] = []

  static let failureDetails: [UInt8] = [8, 3, 0xFF, 0, 7]

  func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    let handler = RecordingHandler(call: call)
    handlers.append(handler)
    switch method {
    case "Echo":
      handler.onEnd = { h in
        var headers = Metadata()
        for key in ["x-echo", "authorization"] {
          if case .text(let value)? = h.call.metadata[key] { headers.add(key, value) }
        }
        h.call.sendInitialMetadata(headers)
        h.call.send(message: h.messages.first ?? [])
        var trailers = Metadata()
        if case .binary(let bytes)? = h.call.metadata["x-raw-bin"] {
          trailers.add("x-raw-bin", .binary(bytes))
        }
        h.call.finish(.ok, trailers: trailers)
      }
    case "Fail":
      handler.onEnd = { h in
        let text = String(decoding: h.messages.first ?? [], as: UTF8.self)
        h.call.finish(GRPCStatus(.invalidArgument, text, details: Self.failureDetails))
      }
    case "Count":
      handler.onEnd = { h in
        h.call.send(message: Array("\(h.messages.count)".utf8))
        h.call.finish(.ok)
      }
    case "Repeat":
      handler.onEnd = { h in
        let count = Int(String(decoding: h.messages.first ?? [], as: UTF8.self)) ?? 0
        for index in 0..<count { h.call.send(message: Array("\(index)".utf8)) }
        h.call.finish(.ok)
      }
    case "Chat":
      handler.onMessage = { h, message in h.call.send(message: message) }
      handler.onEnd = { h in h.call.finish(.ok) }
    case "Large":
      handler.onEnd = { h in
        let size = Int(String(decoding: h.messages.first ?? [], as: UTF8.self)) ?? 0
        h.call.send(message: [UInt8](repeating: 7, count: size))
        h.call.finish(.ok)
      }
    default:
      break
    }
    return handler
  }
}

/// A real client connection and a real server connection joined in memory.
final class InMemoryPair {
  let scheduler = ManualScheduler()
  let service = EchoService()
  let server: GRPCServerConnection
  let client: GRPCClientConnection

  /// `servesWebProtocols`: the server answers gRPC-Web and Connect too,
  /// through its web face, with `Repeat`, `Chat` and `Hold` streaming.
  init(
    client configuration: ClientConfiguration = ClientConfiguration(),
    server serverConfiguration: ServerConfiguration = ServerConfiguration(),
    servesWebProtocols: Bool = false
  ) {
    let router = Router(services: [service])
    let web: WebRPCFace? =
      servesWebProtocols
      ? WebRPCFace(
        services: [service],
        traits: [
          "/test.Echo/Count": RPCMethodTraits(clientStreams: true),
          "/test.Echo/Repeat": RPCMethodTraits(serverStreams: true),
          "/test.Echo/Chat": RPCMethodTraits(clientStreams: true, serverStreams: true),
          "/test.Echo/Hold": RPCMethodTraits(serverStreams: true),
        ],
        jsonCodecs: [:], configuration: serverConfiguration) : nil
    server = GRPCServerConnection(
      group: ConnectionGroup(
        router: router, configuration: serverConfiguration,
        httpResponder: web.map { WebRPCResponder(face: $0) }),
      scheduler: scheduler, outputReady: {})
    client = GRPCClientConnection(
      authority: "test", configuration: configuration, scheduler: scheduler, outputReady: {})
  }

  /// Moves bytes both ways until neither side has anything left to say;
  /// the server's bytes reach the client `chunk` at a time.
  func exchange(chunk: Int = .max) {
    for _ in 0..<1000 {
      var toServer: [UInt8] = []
      _ = client.drainOutput(into: &toServer)
      if !toServer.isEmpty {
        _ = toServer.withUnsafeBytes { server.receive($0) }
      }
      var toClient: [UInt8] = []
      _ = server.drainOutput(into: &toClient)
      toClient.withUnsafeBytes { bytes in
        var start = 0
        while start < bytes.count {
          let end = start + min(chunk, bytes.count - start)
          _ = client.receive(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
          start = end
        }
      }
      if toServer.isEmpty && toClient.isEmpty { return }
    }
  }

  /// Starts a call with a recording handler.
  func call(
    _ method: String, callProtocol: CallProtocol = .grpc, metadata: Metadata = Metadata(),
    timeout: Duration? = nil
  ) -> (ClientCall, RecordingCallHandler) {
    let handler = RecordingCallHandler()
    let call = client.makeCall(
      path: "/test.Echo/\(method)", callProtocol: callProtocol, metadata: metadata,
      timeout: timeout, handler: handler)
    return (call, handler)
  }
}

/// Every request to a method's path goes to the web face, as gauged's
/// router sends them.
private struct WebRPCResponder: HTTPResponder {
  let face: WebRPCFace

  var answersWebRPC: Bool { true }

  func handle(_ request: HTTPRequest, exchange: any HTTPExchange) {
    face.handle(request, exchange: exchange)
  }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
