import GRPCInterop
import GRPCTransport
import GaugeIO
import Glibc

// gauged-interop-server: grpc.testing.TestService on gauged's transport, for
// grpc's interop clients (doc/interop-test-descriptions.md).

let usage = """
  gauged-interop-server: serves grpc.testing.TestService and UnimplementedService (h2c).

  Usage: gauged-interop-server --port PORT [--host HOST] [--use_tls=false]

    --port PORT        Port to listen on (required; 0 picks a free one).
    --host HOST        Address to listen on (default 0.0.0.0).
    --use_tls[=BOOL]   TLS is not supported yet: true exits with status 2.
    -h, --help         Print this help and exit.
  """

func fail(_ message: String) -> Never {
  LineConsole.error(message)
  exit(2)
}

var port: UInt16?
var host = "0.0.0.0"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  var flag = argument
  var inline: String?
  if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
    flag = String(argument[..<equals])
    inline = String(argument[argument.index(after: equals)...])
  }
  func value() -> String {
    guard let text = inline ?? arguments.popFirst() else { fail("\(flag) needs a value") }
    return text
  }
  switch flag {
  case "-h", "--help":
    LineConsole.out(usage)
    exit(0)
  case "--port":
    let text = value()
    guard let parsed = UInt16(text) else { fail("--port: \"\(text)\" is not 0...65535") }
    port = parsed
  case "--host":
    host = value()
  case "--use_tls":
    switch inline ?? "true" {
    case "false": break
    case "true": fail("gauged-interop-server: TLS is not supported yet")
    default: fail("--use_tls: \"\(inline ?? "")\" is not true or false")
    }
  default:
    fail("unknown option \(argument)\n\n\(usage)")
  }
}
guard let port else { fail("--port is required\n\n\(usage)") }

// Before any loop thread exists (see StopSignals).
let stopSignals = StopSignals.block()

var configuration = ServerConfiguration()
// Responses are compressed only where a request asks for it per message.
configuration.compressResponses = true
configuration.serverName = "gauged-interop-server"

let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
let server: GRPCServer
do {
  server = try GRPCServer(
    address: try SocketAddress(parsing: address), threads: 2, configuration: configuration,
    services: [TestService(), UnimplementedService()])
} catch {
  fail("gauged-interop-server: cannot serve on \(address): \(error)")
}
server.start()
LineConsole.out("gauged-interop-server listening on \(server.localAddress)")

_ = stopSignals.wait()
server.stop()
exit(0)
