import GRPCCore
import GRPCTransportTesting
import Testing

@testable import GRPCTransport

/// `test.Echo`: Echo answers its request; Fail ends with the request text as
/// the status message; Collect counts messages and holds the call open until
/// the client half-closes; Hold never answers.
final class EchoService: GRPCService, @unchecked Sendable {
  // @unchecked Sendable: tests drive it from one thread only.
  let serviceName = "test.Echo"
  let methodNames = ["Echo", "Fail", "Collect", "Hold", "Metadata"]
  var handlers: [RecordingHandler] = []

  func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    let handler = RecordingHandler(call: call)
    handlers.append(handler)
    switch method {
    case "Echo":
      handler.onEnd = { h in
        h.call.send(message: h.messages.first ?? [])
        h.call.finish(.ok)
      }
    case "Fail":
      handler.onEnd = { h in
        let text = String(decoding: h.messages.first ?? [], as: UTF8.self)
        h.call.finish(GRPCStatus(.invalidArgument, text, details: [1, 2, 3, 250]))
      }
    case "Collect":
      handler.onEnd = { h in
        h.call.send(message: Array("\(h.messages.count)".utf8))
        h.call.finish(.ok)
      }
    case "Metadata":
      handler.onEnd = { h in
        var initial = Metadata()
        if case .text(let value)? = h.call.metadata["x-echo"] { initial.add("x-echo", value) }
        h.call.sendInitialMetadata(initial)
        var trailers = Metadata()
        if case .binary(let bytes)? = h.call.metadata["x-raw-bin"] {
          trailers.add("x-raw-bin", .binary(bytes))
        }
        h.call.send(message: [])
        h.call.finish(.ok, trailers: trailers)
      }
    default:
      break
    }
    return handler
  }
}

func makeConnection(
  service: EchoService = EchoService(), scheduler: ManualScheduler = ManualScheduler(),
  readsEagerly: Bool = true, configure: (inout ServerConfiguration) -> Void = { _ in }
) -> (InMemoryHTTP2Client, EchoService, ManualScheduler) {
  var configuration = ServerConfiguration()
  configure(&configuration)
  let connection = GRPCServerConnection(
    router: Router(services: [service]), configuration: configuration, scheduler: scheduler,
    outputReady: {})
  return (InMemoryHTTP2Client(server: connection, readsEagerly: readsEagerly), service, scheduler)
}

/// A server connection on its own, fed raw bytes by the test: for what no
/// well-behaved client session would send.
final class RawPeer {
  let server: GRPCServerConnection
  let service: EchoService
  let scheduler: ManualScheduler
  /// Every frame the server has sent so far.
  private(set) var frames: [RawFrames.Frame] = []
  private var unparsed: [UInt8] = []

  init(configure: (inout ServerConfiguration) -> Void = { _ in }) {
    let (client, service, scheduler) = makeConnection(configure: configure)
    self.server = client.server
    self.service = service
    self.scheduler = scheduler
  }

  /// Sends the connection preface and an empty SETTINGS frame.
  func open() {
    #expect(send(RawFrames.preface + RawFrames.settings()))
  }

  /// False when the server gave up on the connection.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { server.receive($0) }
  }

  /// Takes what the server has queued; returns the new frames.
  @discardableResult
  func read() -> [RawFrames.Frame] {
    _ = server.drainOutput(into: &unparsed)
    let new = RawFrames.parse(&unparsed)
    frames += new
    return new
  }

  var goAways: [RawFrames.GoAway] { frames.compactMap(\.goAway) }

  func resetCode(stream: Int32) -> UInt32? {
    frames.first { $0.type == 0x3 && $0.stream == stream }?.errorCode
  }
}
