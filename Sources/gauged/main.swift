import GRPCStandardServices
import GRPCTransport
import GaugeDomain
import GaugeIO
import GaugeService
import GaugeStore
import Glibc

let options: Options
switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let message):
  if code == 0 { LineConsole.out(message) } else { LineConsole.error(message) }
  exit(code)
case .run(let parsed):
  options = parsed
}

// Before any loop thread exists (see StopSignals).
let stopSignals = StopSignals.block()
// Past a file size limit (RLIMIT_FSIZE) a write should fail with EFBIG, which
// the store reports as UNAVAILABLE, instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
// Every connection holds a descriptor, and the soft limit a shell hands out
// (often 1,024) would cap gauged far below the connections it serves. As
// Go's runtime does, gauged raises it to the hard limit, which it may not
// pass; past that, accepting pauses and says why (Acceptor).
_ = try? Syscall.raiseOpenFileLimitToHardLimit()

let threads = options.threads > 0 ? options.threads : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
var configuration = options.server
configuration.serverName = "gauged/\(version)"

let persistence: SQLiteWidgetPersistence?
let table: WidgetTable
let storeDescription: String
if options.memoryOnly {
  // Nothing is remembered, so a resume point from an earlier life must get
  // a reset rather than an answer about different widgets.
  let start = UInt64(WallClock.unixMicroseconds())
  persistence = nil
  table = WidgetTable(lastRevision: start, horizon: start)
  storeDescription = "in-memory store"
} else {
  do {
    let disk = try SQLiteWidgetPersistence(
      directory: options.dataDirectory,
      options: StoreOptions(
        durability: options.durability, flushIntervalMs: options.flushIntervalMs,
        tombstoneRetentionMs: options.tombstoneRetentionMs, log: LineConsole.error))
    persistence = disk
    table = disk.loadedTable
    storeDescription =
      "store \(disk.databasePath), \(options.durability.rawValue), \(table.count) widgets, "
      + "revision \(table.lastRevision)"
  } catch {
    LineConsole.error("gauged: \(error)")
    exit(1)
  }
}
let hub = ChangeHub()
let store = InMemoryWidgetStore(
  table: table, persistence: persistence, tombstoneRetentionMs: options.tombstoneRetentionMs,
  observer: hub.publish, batchObserver: hub.publish(batch:))
let widgets = WidgetService(store: store, hub: hub)
let reflection = ReflectionService.allVersions(listing: [widgets.serviceName, HealthService.name])
// Health answers for every service served, itself and reflection included.
let health = HealthService(
  services: [widgets.serviceName, HealthService.name] + reflection.map(\.serviceName))
// Everything that is not a gRPC call: gRPC-Web and Connect calls to the
// same services, REST, live events, the index page.
let services: [any GRPCService] = [widgets, health] + reflection
let web = WebRouter(
  rpc: WebRPCFace(
    services: services, traits: EmbeddedMethodTraits.byPath, jsonCodecs: WidgetServiceJSON.codecs,
    configuration: configuration),
  rest: RESTFace(store: store), events: EventsFace(store: store, hub: hub),
  index: IndexPage(
    serverName: configuration.serverName,
    services: [widgets.serviceName, HealthService.name] + reflection.map(\.serviceName)))
// With --cors-origin, pages on other origins may read whatever the faces answer.
let httpFaces: any HTTPResponder =
  options.cors.map { CORSResponder(policy: $0, wrapping: web) } ?? web

/// Flushes and releases the store; false when acknowledged-in-memory
/// changes could not be written.
func closeStore() -> Bool {
  do {
    try persistence?.close()
    return true
  } catch {
    LineConsole.error("gauged: \(error)")
    return false
  }
}

let server: GRPCServer
do {
  server = try GRPCServer(
    addresses: options.listenAddresses, threads: threads,
    configuration: configuration, services: services, httpResponder: httpFaces)
} catch {
  LineConsole.error("gauged: \(error)")
  _ = closeStore()
  exit(1)
}
server.start()
// The first address stays the first word after "listening on": scripts read it.
let addresses = server.localAddresses.map(\.description).joined(separator: " and ")
LineConsole.out(
  "gauged \(version) listening on \(addresses) (\(threads) threads, \(storeDescription))")

let received = stopSignals.wait()
server.shutdown(grace: options.shutdownGrace) {
  health.shutdown()
  LineConsole.error(
    "gauged: signal \(received), refusing new calls; calls in flight have"
      + " \(DurationText.format(options.shutdownGrace)) to finish")
}
LineConsole.error("gauged: stopped")
// No request is served after this, so nothing can be recorded during the flush.
exit(closeStore() ? 0 : 1)
