import GRPCCore
import GRPCTransport
import GaugeClient
import GaugeIO
import Testing

/// gauged does not check tokens yet (the security issue), so a stand-in
/// server in process answers GetWidget with the `authorization` it saw.
@Suite struct TokenTests {
  @Test func tokenGoesOutAsBearerMetadata() async throws {
    let server = try GRPCServer(
      address: try SocketAddress(parsing: "127.0.0.1:0"), threads: 1,
      configuration: ServerConfiguration(), services: [AuthorizationEcho()])
    server.start()
    defer { server.stop() }
    let target = "127.0.0.1:\(server.localAddress.port)"

    let withToken = try GaugeClient(target: target, token: "s3cret")
    let seen = await failure { try await withToken.get(id: "cpu") }
    #expect(seen?.code == .notFound)
    #expect(seen?.message == "Bearer s3cret")
    await withToken.close()

    let without = try GaugeClient(target: target)
    #expect(await failure { try await without.get(id: "cpu") }?.message == "")
    await without.close()
  }
}

/// `gauge.v1.WidgetService/GetWidget`, answered NOT_FOUND with the
/// request's `authorization` value as the message.
final class AuthorizationEcho: GRPCService {
  let serviceName = "gauge.v1.WidgetService"
  let methodNames = ["GetWidget"]

  func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    EchoHandler(call: call)
  }

  private final class EchoHandler: RPCHandler {
    let call: ServerCall

    init(call: ServerCall) {
      self.call = call
    }

    func receive(message: [UInt8]) {}

    func receiveEnd() {
      var seen = ""
      if case .text(let value)? = call.metadata["authorization"] { seen = value }
      call.finish(GRPCStatus(.notFound, seen))
    }

    func cancel(_ reason: GRPCStatus) {}
  }
}
