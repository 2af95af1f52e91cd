import GRPCStandardServices
import GRPCTransport
import GaugeAuth
import GaugeDomain
import GaugeIO
import GaugeLog
import GaugeNATS
import GaugeNATSStore
import GaugeService
import GaugeStore
import GaugeTLS
import Glibc

// `gauged token create ...` works on a data directory and exits.
if CommandLine.arguments.dropFirst().first == "token" {
  let outcome = TokenCommand.run(
    Array(CommandLine.arguments.dropFirst(2)), nowMs: WallClock.unixMilliseconds())
  if let out = outcome.out { LineConsole.out(out) }
  if let err = outcome.err { LineConsole.error(err) }
  exit(outcome.code)
}

// `gauged export ...` and `gauged import ...` move widgets between stores and exit.
switch CommandLine.arguments.dropFirst().first {
case "export":
  exit(ExportCommand.run(Array(CommandLine.arguments.dropFirst(2))))
case "import":
  exit(ImportCommand.run(Array(CommandLine.arguments.dropFirst(2))) { readLine() })
default:
  break
}

let options: Options
switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let message):
  if code == 0 { LineConsole.out(message) } else { LineConsole.error(message) }
  exit(code)
case .run(let parsed):
  options = parsed
}

// Before any loop thread exists (see StopSignals).
// With TLS, SIGHUP reloads the certificate and key instead of ending gauged.
let stopSignals = StopSignals.block(
  alsoWaitingFor: options.tlsCertificate == nil ? [] : [SIGHUP])
// Past a file size limit (RLIMIT_FSIZE) a write should fail with EFBIG, which
// the store reports as UNAVAILABLE, instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
// Every connection holds a descriptor, and the soft limit a shell hands out
// (often 1,024) would cap gauged far below the connections it serves. As
// Go's runtime does, gauged raises it to the hard limit, which it may not
// pass; past that, accepting pauses and says why (Acceptor).
_ = try? Syscall.raiseOpenFileLimitToHardLimit()

/// How late past its deadline a widget may be marked stale.
let staleCheckInterval = Duration.milliseconds(250)

let log = EventLog(format: options.logFormat ?? .forStandardError, level: options.logLevel)

let threads = options.threads > 0 ? options.threads : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
var configuration = options.server
configuration.serverName = "gauged/\(version)"
configuration.log = log

let persistence: SQLiteWidgetPersistence?
let table: WidgetTable
let storeDescription: String
/// `--nats`: the bucket the widgets live in; the store is made below.
let bucket: NATSKeyValueBucket?
if let nats = options.nats {
  switch SharedBucketOpening.open(nats, log: log, stopSignals: stopSignals) {
  case .opened(let opened):
    bucket = opened
  case .failed(let error):
    log.error("nats_failed", "gauged: \(error)", [LogField("error", error.description)])
    exit(1)
  case .stopped(let signal):
    log.info("stop", "gauged: signal \(signal) while waiting for NATS; stopped")
    exit(0)
  }
  persistence = nil
  // The replica starts empty; the bucket's watch fills it.
  table = WidgetTable()
  storeDescription = SharedBucketOpening.describe(bucket!, servers: nats.connection.servers)
} else if options.memoryOnly {
  bucket = nil
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
        tombstoneRetentionMs: options.tombstoneRetentionMs,
        log: { failing, message in
          if failing {
            log.error("store_failed", message)
          } else {
            log.info("store_recovered", message)
          }
        }))
    persistence = disk
    table = disk.loadedTable
    storeDescription =
      "store \(disk.databasePath), \(options.durability.rawValue), \(table.count) widgets, "
      + "revision \(table.lastRevision)"
  } catch {
    log.error("store_failed", "gauged: \(error)", [LogField("directory", options.dataDirectory)])
    exit(1)
  }
  bucket = nil
}
// The bearer tokens: the data directory's, or --tokens-file's for --memory.
let tokens: [AccessToken]
if let persistence {
  tokens = persistence.loadedTokens
} else if let path = options.tokensFile {
  switch TokenSource.read(file: path, nowMs: WallClock.unixMilliseconds()) {
  case .success(let read): tokens = read
  case .failure(let failure):
    LineConsole.error("gauged: \(failure.message)")
    exit(2)
  }
} else {
  tokens = []
}
// Without tokens anyone who reaches a listener may change every widget:
// only this machine may, unless the operator says otherwise.
let reachable = (options.listenAddresses + [options.metricsListen].compactMap { $0 })
  .filter { !$0.isLocalOnly }
if tokens.isEmpty, !options.allowUnauthenticated, let exposed = reachable.first {
  LineConsole.error(
    "gauged: no tokens are configured, and \(exposed) can be reached from other machines;"
      + " create one (gauged token create NAME --scope admin --data-dir DIR, or --tokens-file"
      + " with --memory or --nats), or pass --allow-unauthenticated to serve it without authentication"
  )
  _ = try? persistence?.close()
  exit(2)
}
let gate = AccessGate(registry: TokenRegistry(tokens: tokens), log: log)
let tokenPersistence: SQLiteTokenPersistence?
do {
  tokenPersistence = try persistence.map { try SQLiteTokenPersistence(store: $0) }
} catch {
  log.error("store_failed", "gauged: \(error)")
  _ = try? persistence?.close()
  exit(1)
}
let accessDescription =
  tokens.isEmpty
  ? "no tokens: every request is served without authentication"
  : "\(tokens.count) token\(tokens.count == 1 ? "" : "s"): requests need a bearer token"
    + " (health and the pages are open)"

let hub = ChangeHub()
/// Health says NOT_SERVING until a shared store's replica has loaded.
let readiness = ReplicaReadiness()
/// The store of this instance alone (SQLite or memory), or nil with --nats.
let localStore: InMemoryWidgetStore?
let sharedStore: NATSWidgetStore?
if let bucket {
  do {
    // The watch is the only path by which changes reach the hub, this
    // instance's own included, so every instance shows the same order.
    sharedStore = try NATSWidgetStore(
      bucket: bucket, tombstoneRetentionMs: options.tombstoneRetentionMs,
      valueAcknowledgement: options.durability == .strict ? .onceStored : .onAcceptance,
      observer: hub.publish, onLoaded: readiness.markLoaded)
  } catch {
    log.error("nats_failed", "gauged: \(error)", [LogField("error", error.description)])
    exit(1)
  }
  localStore = nil
  // Operators learn of a lost NATS from the log; writes fail meanwhile.
  let servers = options.nats!.connection.servers.joined(separator: ",")
  bucket.observeConnection { state in
    switch state {
    case .disconnected:
      log.warn(
        "nats_disconnected",
        "gauged: lost the connection to NATS (\(servers)); writes fail until it is back",
        [LogField("servers", servers)])
    case .reconnected:
      log.info(
        "nats_reconnected", "gauged: connected to NATS again", [LogField("servers", servers)])
    case .connected, .closed:
      break
    }
  }
} else {
  let memory = InMemoryWidgetStore(
    table: table, persistence: persistence, tombstoneRetentionMs: options.tombstoneRetentionMs,
    observer: hub.publish, batchObserver: hub.publish(batch:))
  // Widgets whose stale_after_ms ran out while gauged was down are stale
  // before anyone reads them.
  memory.markStaleWidgets()
  localStore = memory
  sharedStore = nil
  readiness.markLoaded()
}
let store: any WidgetStore = localStore ?? sharedStore!
let census: @Sendable () -> (widgets: Int, lastRevision: UInt64) = {
  localStore?.census ?? sharedStore!.census
}
// With --self-widgets, clients read gauged's own gauges and cannot write
// them: the faces get the store behind a guard of the prefix.
let clientStore: any WidgetStore =
  options.selfWidgets ? ReservedPrefixStore(store, prefix: SelfWidgets.prefix) : store
let widgets = WidgetService(store: clientStore, hub: hub)
let tokenAdministration = TokenAdministration(
  registry: gate.registry, persistence: tokenPersistence)
// Last-use times go to the data file once a minute and when gauged stops.
let tokenUses = tokenPersistence.map {
  TokenUseRecorder(registry: gate.registry, persistence: $0, log: log)
}
do {
  try tokenUses?.start(every: .seconds(60))
} catch {
  log.error("start_failed", "gauged: \(error)")
  exit(1)
}
let tokenService = TokenService(administration: tokenAdministration)
let reflection = ReflectionService.allVersions(
  listing: [widgets.serviceName, tokenService.serviceName, HealthService.name])
// Health answers for every service served, itself and reflection included.
let health = HealthService(
  services: [widgets.serviceName, tokenService.serviceName, HealthService.name]
    + reflection.map(\.serviceName))
// The server and the widgets are not served before the widgets are there.
for service in ["", widgets.serviceName] { health.setStatus(.notServing, for: service) }
readiness.whenLoaded {
  for service in ["", widgets.serviceName] { health.setStatus(.serving, for: service) }
}
// With --nats, an instance that lost NATS can neither write nor prove its
// reads current: health says so until the connection is back, so that a
// balancer sends clients to another instance.
bucket?.observeConnection { state in
  switch state {
  case .disconnected:
    for service in ["", widgets.serviceName] { health.setStatus(.notServing, for: service) }
  case .reconnected where readiness.isLoaded:
    for service in ["", widgets.serviceName] { health.setStatus(.serving, for: service) }
  case .connected, .reconnected, .closed:
    break
  }
}
// Everything that is not a gRPC call: gRPC-Web and Connect calls to the
// same services, REST, live events, the index page.
// Every service behind the gate: while there are no tokens it lets calls
// through after one atomic load; the first token made turns it on.
let served: [any GRPCService] = [widgets, tokenService, health] + reflection
// Serving without tokens where other machines reach it, callers are
// limited by their address instead.
var rateLimits = options.rateLimits
rateLimits.anonymous = tokens.isEmpty && !reachable.isEmpty
let limiter = RateLimiter(limits: rateLimits)
// Each connection then learns its peer's address once.
configuration.recordsPeers = rateLimits.anonymous
let services: [any GRPCService] = served.map {
  GuardedService($0, gate: gate, limiter: limiter)
}
// Each loop counts in its own shard; a scrape adds them up.
// The access log rides on the same per-loop counters.
let accessLog = options.accessLogSample.map { AccessLog(log: log, sample: $0) }
// Self widgets are made of the same counters.
let serverMetrics =
  options.metrics || accessLog != nil || options.selfWidgets
  ? ServerMetrics(traits: EmbeddedMethodTraits.byPath, accessLog: accessLog) : nil
let metricsFace = (options.metrics ? serverMetrics : nil).map {
  MetricsFace(
    server: $0,
    gauges: StoreGauges(census: census, persistence: persistence, shared: sharedStore).families)
}
let web = WebRouter(
  rpc: WebRPCFace(
    services: services, traits: EmbeddedMethodTraits.byPath, jsonCodecs: WidgetServiceJSON.codecs,
    configuration: configuration),
  rest: RESTFace(store: clientStore), events: EventsFace(store: clientStore, hub: hub),
  index: IndexPage(
    serverName: configuration.serverName,
    services: [widgets.serviceName, tokenService.serviceName, HealthService.name]
      + reflection.map(\.serviceName)),
  metrics: metricsFace, gate: gate, tokens: TokensFace(administration: tokenAdministration),
  limiter: limiter)
// With --cors-origin, pages on other origins may read whatever the faces answer.
let httpFaces: any HTTPResponder =
  options.cors.map { CORSResponder(policy: $0, wrapping: web) } ?? web

/// Flushes and releases the store; false when acknowledged-in-memory
/// changes could not be written.
func closeStore() -> Bool {
  tokenUses?.finish()
  tokenPersistence?.close()
  sharedStore?.stop()
  bucket?.close()
  do {
    try persistence?.close()
    return true
  } catch {
    log.error("store_failed", "gauged: \(error)")
    return false
  }
}

var tls: ServerTLSConfiguration?
if let certificate = options.tlsCertificate, let key = options.tlsKey {
  do {
    let configuration = try ServerTLSConfiguration(
      certificateChainFile: certificate, privateKeyFile: key, clientCAFile: options.tlsClientCA)
    if configuration.context.certificateHasExpired {
      log.warn(
        "tls_certificate_expired", "gauged: the certificate in \(certificate) has expired",
        [LogField("file", certificate)])
    }
    tls = configuration
  } catch {
    log.error("tls_failed", "gauged: \(error)")
    _ = closeStore()
    exit(1)
  }
}
let listeners = options.listenAddresses.indices.map {
  Listener(
    address: options.listenAddresses[$0], tls: options.listenerUsesTLS($0) ? tls : nil)
}

let server: GRPCServer
do {
  server = try GRPCServer(
    listeners: listeners, threads: threads,
    configuration: configuration, services: services, httpResponder: httpFaces,
    metrics: serverMetrics)
} catch {
  log.error("listen_failed", "gauged: \(error)")
  _ = closeStore()
  exit(1)
}
// --metrics-listen: a server of one loop with no services, answering
// /metrics only; its own traffic is not counted.
var metricsServer: GRPCServer?
if let address = options.metricsListen, let metricsFace {
  do {
    metricsServer = try GRPCServer(
      address: address, threads: 1, configuration: configuration, services: [],
      httpResponder: metricsFace)
  } catch {
    log.error("listen_failed", "gauged: --metrics-listen: \(error)")
    _ = closeStore()
    exit(1)
  }
}
server.start()
metricsServer?.start()
// One timer for every widget with stale_after_ms: while no deadline is due,
// each tick only looks at the earliest one.
if let localStore {
  server.repeatEvery(staleCheckInterval) { localStore.markStaleWidgets() }
} else if let sharedStore {
  server.repeatEvery(staleCheckInterval) { sharedStore.markStaleWidgets() }
}
if options.selfWidgets, let serverMetrics {
  let selfWidgets = SelfWidgets(
    store: store, metrics: serverMetrics, revision: { census().lastRevision },
    storeQueueDepth: { persistence?.queueDepth ?? 0 })
  server.repeatEvery(.seconds(1)) { selfWidgets.refresh() }
}
if let serverMetrics {
  CoalescingReport(metrics: serverMetrics, log: log).start()
}
// The first address stays the first word after "listening on": scripts read it.
// With TLS, each address says whether it is TLS or cleartext.
let addresses = zip(server.localAddresses, listeners).map { address, listener in
  guard tls != nil else { return address.description }
  return "\(address) (\(listener.tls == nil ? "cleartext" : "TLS"))"
}.joined(separator: " and ")
LineConsole.out(
  "gauged \(version) listening on \(addresses) (\(threads) threads, \(storeDescription))")
if let metricsServer {
  LineConsole.out("gauged metrics on \(metricsServer.localAddress)")
}
LineConsole.out("gauged access: \(accessDescription)")
log.info(
  "start", "gauged \(version) serving",
  [
    LogField("version", version),
    LogField("listeners", server.localAddresses.map(\.description).joined(separator: " ")),
    LogField("metrics_listener", metricsServer.map { $0.localAddress.description } ?? ""),
    LogField(
      "store",
      persistence?.databasePath ?? options.nats.map { "nats:\($0.bucket.name)" } ?? "memory"),
    LogField(
      "durability",
      persistence == nil && options.nats == nil ? "none" : options.durability.rawValue),
    LogField("widgets", census().widgets), LogField("threads", threads),
    LogField("metrics", options.metrics), LogField("access_log", accessLog != nil),
    LogField("self_widgets", options.selfWidgets),
    LogField(
      "tls_listeners",
      zip(server.localAddresses, listeners).filter { $1.tls != nil }.map { $0.0.description }
        .joined(separator: " ")),
    LogField("tokens", tokens.count),
  ])

var received = stopSignals.wait()
while received == SIGHUP, let tls {
  do {
    let context = try tls.reload()
    log.info(
      "tls_reloaded", "gauged: SIGHUP: new TLS connections get the certificate and key read now",
      [LogField("file", tls.certificateChainFile)])
    if context.certificateHasExpired {
      log.warn(
        "tls_certificate_expired",
        "gauged: the certificate in \(tls.certificateChainFile) has expired",
        [LogField("file", tls.certificateChainFile)])
    }
  } catch {
    log.error(
      "tls_reload_failed", "gauged: SIGHUP: keeping the previous certificate and key: \(error)",
      [LogField("error", error.description)])
  }
  received = stopSignals.wait()
}
server.shutdown(grace: options.shutdownGrace) {
  health.shutdown()
  log.info(
    "stopping",
    "gauged: signal \(received), refusing new calls; calls in flight have"
      + " \(DurationText.format(options.shutdownGrace)) to finish",
    [
      LogField("signal", "\(received)"),
      LogField("grace_ms", Int(options.shutdownGrace / .milliseconds(1))),
    ])
}
metricsServer?.stop()
// No request is served after this, so nothing can be recorded during the flush.
let flushed = closeStore()
log.info("stop", "gauged: stopped", [LogField("flushed", flushed)])
exit(flushed ? 0 : 1)
