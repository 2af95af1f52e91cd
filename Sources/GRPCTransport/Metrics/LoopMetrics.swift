import GaugeMetrics

/// The transport's counters for one event loop: gRPC methods, HTTP routes,
/// open connections. Created by `ServerMetrics` for each loop and used on
/// that loop's thread only, so nothing here is atomic or locked: a scrape
/// hops to the loop to read it.
public final class LoopMetrics {
  private let traits: [String: RPCMethodTraits]
  private let accessLog: AccessLog?
  /// By `/service/method`.
  private var methods: [String: GRPCMethodMetrics] = [:]
  /// By face, then route.
  private var routes: [String: [String: HTTPRouteMetrics]] = [:]
  /// The routes used last, newest first: a loop serves a few routes again
  /// and again, and comparing their short labels costs less than hashing
  /// them twice per request.
  private var recentRoutes: [HTTPRouteMetrics] = []
  private static let recentRouteCount = 4
  /// Open connections by protocol (`h2`, `http1`).
  private var connections: [String: Int] = [:]
  /// What the modules above keep on this loop, one part per type.
  private var parts: [ObjectIdentifier: any LoopMetricsPart] = [:]

  init(traits: [String: RPCMethodTraits], accessLog: AccessLog?) {
    self.traits = traits
    self.accessLog = accessLog
  }

  /// The counters of a method that routing found. Only found methods get
  /// here, so made-up paths cannot grow the table.
  public func method(service: String, method: String) -> GRPCMethodMetrics {
    self.method(path: "/\(service)/\(method)", service: service, method: method)
  }

  /// The same, for a caller that has the method's path at hand already.
  public func method(path: String, service: String, method: String) -> GRPCMethodMetrics {
    if let known = methods[path] { return known }
    let made = GRPCMethodMetrics(
      service: service, method: method, type: GRPCCallType(traits[path] ?? RPCMethodTraits()),
      accessLog: accessLog, loop: self)
    methods[path] = made
    return made
  }

  /// The counters of one of a face's routes. `route` is a template
  /// (`/v1/widgets/{id}`), never a raw path, for the same reason.
  public func route(face: String, route: String) -> HTTPRouteMetrics {
    if let recent = recentRoutes.first(where: { $0.route == route && $0.face == face }) {
      return recent
    }
    let found: HTTPRouteMetrics
    if let known = routes[face]?[route] {
      found = known
    } else {
      found = HTTPRouteMetrics(face: face, route: route, accessLog: accessLog)
      routes[face, default: [:]][route] = found
    }
    if recentRoutes.count == Self.recentRouteCount { recentRoutes.removeLast() }
    recentRoutes.insert(found, at: 0)
    return found
  }

  /// Whether calls and requests are logged: connections then learn their
  /// peer's address when they start, for the lines.
  var logsAccess: Bool { accessLog != nil }

  /// This loop's part of type `T`, made on first use.
  public func part<T: LoopMetricsPart>(_ type: T.Type, make: () -> T) -> T {
    if let known = parts[ObjectIdentifier(type)] as? T { return known }
    let made = make()
    parts[ObjectIdentifier(type)] = made
    return made
  }

  func connectionOpened(protocol name: String) {
    connections[name, default: 0] += 1
  }

  func connectionClosed(protocol name: String) {
    connections[name, default: 0] -= 1
  }

  var snapshot: ServerMetrics.Snapshot {
    ServerMetrics.Snapshot(
      methods: methods.mapValues(\.snapshot),
      routes: routes.values.flatMap(\.values).map(\.snapshot),
      connections: connections,
      parts: parts.values.reduce([]) { $0.merged(with: $1.families) })
  }
}
