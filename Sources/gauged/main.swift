import GRPCStandardServices
import GRPCTransport
import GaugeDomain
import GaugeIO
import GaugeService
import Glibc

let options: Options
switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let message):
  if code == 0 { Console.out(message) } else { Console.error(message) }
  exit(code)
case .run(let parsed):
  options = parsed
}

// Block the stop signals before any loop thread exists, so that every thread
// inherits the mask and only the main thread's sigwait sees them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
signal(SIGPIPE, SIG_IGN)

let threads = options.threads > 0 ? options.threads : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
var configuration = ServerConfiguration()
configuration.maxReceiveMessageBytes = options.maxMessageBytes
configuration.compressResponses = options.compressResponses
configuration.serverName = "gauged/\(version)"

let hub = ChangeHub()
let store = InMemoryWidgetStore(observer: hub.publish)
let widgets = WidgetService(store: store, hub: hub)
let reflection = ReflectionService.allVersions(listing: [widgets.serviceName, HealthService.name])
// Health answers for every service served, itself and reflection included.
let health = HealthService(
  services: [widgets.serviceName, HealthService.name] + reflection.map(\.serviceName))
let server: GRPCServer
do {
  server = try GRPCServer(
    address: try SocketAddress(parsing: options.listen), threads: threads,
    configuration: configuration, services: [widgets, health] + reflection)
} catch {
  Console.error("gauged: cannot serve on \(options.listen): \(error)")
  exit(1)
}
server.start()
Console.out(
  "gauged \(version) listening on \(server.localAddress) (\(threads) threads, in-memory store)")

var received: Int32 = 0
sigwait(&stopSignals, &received)
Console.error("gauged: signal \(received), stopping")
server.stop()
exit(0)
