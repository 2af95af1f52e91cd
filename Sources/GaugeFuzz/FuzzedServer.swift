import GRPCStandardServices
import GRPCTransport
import GaugeDomain
import GaugeService

/// What gauged serves, assembled as its `main` does but in memory and on a
/// fixed clock, so that an input replays the same way every time.
struct FuzzedServer {
  let store: InMemoryWidgetStore
  /// The store's observer, which every subscriber attaches to.
  let hub: ChangeHub
  let router: Router
  /// What answers requests that are not gRPC calls, as gauged wires it.
  let web: WebRouter
  /// Every method served, then paths no service owns.
  let paths: [String]

  /// Revisions below this cannot be resumed from, like a server that has
  /// restarted: Subscribe's `since_revision` meets both sides of it.
  static let horizon: UInt64 = 1_000

  init() {
    let hub = ChangeHub()
    self.hub = hub
    store = InMemoryWidgetStore(
      table: WidgetTable(lastRevision: Self.horizon, horizon: Self.horizon),
      clock: { 1_764_000_000_000 }, observer: hub.publish, batchObserver: hub.publish(batch:))
    let widgets = WidgetService(store: store, hub: hub)
    let reflection = ReflectionService.allVersions(
      listing: [widgets.serviceName, HealthService.name])
    let health = HealthService(
      services: [widgets.serviceName, HealthService.name] + reflection.map(\.serviceName))
    let services: [any GRPCService] = [widgets, health] + reflection
    router = Router(services: services)
    web = WebRouter(
      rpc: WebRPCFace(
        services: services, traits: EmbeddedMethodTraits.byPath,
        jsonCodecs: WidgetServiceJSON.codecs,
        configuration: ServerConfiguration()),
      rest: RESTFace(store: store), events: EventsFace(store: store, hub: hub),
      index: IndexPage(
        serverName: "gauged/fuzz", services: services.map(\.serviceName)))
    paths =
      services.flatMap { service in
        service.methodNames.map { "/\(service.serviceName)/\($0)" }
      } + ["/gauge.v1.WidgetService/Nothing", "/no.Such/Service", "gauge.v1.WidgetService"]
  }

  /// Limits chosen by the input's first byte: tight ones reach the paths
  /// that refuse, queue and coalesce, short clocks those that ping, idle
  /// out and give up on a peer that does not read.
  static func configuration(from flags: UInt8) -> ServerConfiguration {
    var configuration = ServerConfiguration()
    if flags & 0x01 != 0 { configuration.compressResponses = true }
    if flags & 0x02 != 0 { configuration.maxReceiveMessageBytes = 512 }
    if flags & 0x04 != 0 { configuration.maxConcurrentStreams = 3 }
    if flags & 0x08 != 0 { configuration.maxHeaderListBytes = 256 }
    if flags & 0x10 != 0 { configuration.maxStreamBufferBytes = 2_048 }
    if flags & 0x20 != 0 { configuration.maxCallsInFlight = 2 }
    if flags & 0x40 != 0 {
      configuration.keepalive.interval = .milliseconds(200)
      configuration.keepalive.timeout = .milliseconds(100)
    }
    if flags & 0x80 != 0 {
      configuration.idleTimeout = .milliseconds(500)
      configuration.writeStallTimeout = .milliseconds(300)
    }
    return configuration
  }
}
