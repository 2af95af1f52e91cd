import GRPCClient
import GaugeIO
import Glibc

let options: BenchOptions
switch BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let message):
  if code == 0 { LineConsole.out(message) } else { LineConsole.error(message) }
  exit(code)
case .run(let parsed):
  options = parsed
}
signal(SIGPIPE, SIG_IGN)

/// Descriptors for the connections scenarios ask for, with room to spare.
let wantedDescriptors = max(options.connections, options.subscribers) + 1024
do {
  let limit = try Syscall.raiseOpenFileLimit(to: max(wantedDescriptors, 65536))
  if limit < wantedDescriptors {
    LineConsole.error("gauge-bench: only \(limit) descriptors allowed, \(wantedDescriptors) wanted")
  }
} catch {
  LineConsole.error("gauge-bench: \(error)")
}

func runScenario() throws(BenchFailure) -> JSONLine {
  let address: SocketAddress
  do {
    address = try SocketAddress(parsing: options.target)
  } catch {
    throw BenchFailure("--target \(options.target): \(error)")
  }
  switch options.scenario {
  case .body: return try ToolScenarios.body(options)
  case .revision: return try ToolScenarios.revision(options, address: address)
  case .socketFloorServer:
    do {
      try SocketFloorServer.run(
        listeningOn: address, loops: options.loops, messageBytes: options.messageBytes)
    } catch {
      throw BenchFailure("cannot serve on \(address): \(error)")
    }
  default: break
  }
  var configuration = ClientConfiguration()
  if options.tls {
    do {
      configuration.tls = try ClientTLS(target: options.target, caFile: options.caFile)
    } catch {
      throw BenchFailure("--tls: \(error)")
    }
  }
  // The fan-out and connections producers get a loop of their own.
  let extraLoop =
    [.fanout, .sseFanout, .grpcWebFanout, .connectFanout, .connections].contains(options.scenario)
    ? 1 : 0
  let loops: LoadLoops
  do {
    loops = try LoadLoops(
      count: options.loops + extraLoop, address: address, configuration: configuration)
  } catch {
    throw BenchFailure("cannot start event loops: \(error)")
  }
  var line: JSONLine
  switch options.scenario {
  case .setup: line = try ToolScenarios.setup(options, loops: loops)
  case .unary: line = try UnaryScenario.run(options, loops: loops)
  case .publish: line = try PublishScenario.run(options, loops: loops)
  case .fanout: line = try FanOutScenario.run(options, loops: loops)
  case .sseFanout: line = try SSEFanOutScenario.run(options, loops: loops)
  case .grpcWebFanout: line = try WebFanOutScenario.run(.grpcWeb, options, loops: loops)
  case .connectFanout: line = try WebFanOutScenario.run(.connectStreaming, options, loops: loops)
  case .clientPublish: line = try ClientPublishScenario.run(options, loops: loops)
  case .clientSubscribe: line = try ClientSubscribeScenario.run(options, loops: loops)
  case .memory: line = try MemoryScenario.run(options, loops: loops)
  case .connections: line = try ConnectionsScenario.run(options, loops: loops)
  case .socketFloor: line = try SocketFloorScenario.run(options, loops: loops)
  case .body, .revision, .socketFloorServer: preconditionFailure("handled above")
  }
  if !options.label.isEmpty { line.add("label", options.label) }
  return line
}

do {
  let line = try runScenario()
  LineConsole.out(line.description)
  // Connections still open are the server's to drop; loop threads end with us.
  exit(0)
} catch {
  LineConsole.error("gauge-bench \(options.scenario.rawValue): \(error)")
  exit(1)
}
