import Glibc
import HTTP2

/// What the server connections of one event loop share, each through one
/// reference: the router, the configuration, the routes found so far, the
/// outbound frame buffer, and the header blocks being received. An idle
/// connection then holds none of them itself, and 10,000 connections do
/// not keep 10,000 route caches.
///
/// Used only on its loop's thread: the route cache takes no lock.
public final class ConnectionGroup {
  let router: Router
  let configuration: ServerConfiguration
  /// What answers requests that are not gRPC calls.
  let httpResponder: any HTTPResponder
  var http1Configuration: HTTP1Configuration { configuration.http1 }
  let frameBuffer: SharedFrameBuffer?
  let blockCache: NGHTTP2BlockCache?
  /// This loop's counters, when the server keeps metrics.
  let metrics: LoopMetrics?
  /// Paths already resolved to a method: clients call the same few methods
  /// over and over. Only found methods are kept, and at most `maxKnownRoutes`,
  /// so a client sending made-up paths cannot grow it. Keyed by a hash of
  /// the path's bytes, which are compared on a hit: a lookup makes no
  /// String.
  private var knownRoutes: [UInt64: KnownRoute] = [:]
  private static let maxKnownRoutes = 256
  /// The known route a path matched last (see `route`).
  private var lastRoute: KnownRoute?
  /// Blocks lent to connections while they receive a header block, and
  /// given back when it ends: a loop needs as many as it has connections
  /// in the middle of one, which is few.
  private var spareHeaderBlocks: [IncomingHeaderBlock] = []
  private static let maxSpareHeaderBlocks = 16
  /// The emptied outbound buffers of closed streams, lent to new ones: a
  /// unary call's answer then allocates no buffer. Small ones only
  /// (`GRPCServerConnection.keptOutboundCapacity`), and at most 64 KiB of
  /// them per loop: enough for the answers of a few hundred calls in flight.
  private(set) var spareOutboundBuffers: [[UInt8]] = []
  private var spareOutboundBytes = 0
  private static let maxSpareOutboundBytes = 64 << 10

  /// `sharesFrameBuffer`: the connections serialize frames in one buffer,
  /// and reuse the small blocks nghttp2 frees, which is safe because they
  /// all run on one loop.
  public init(
    router: Router, configuration: ServerConfiguration, httpResponder: (any HTTPResponder)? = nil,
    sharesFrameBuffer: Bool = true, metrics: LoopMetrics? = nil
  ) {
    self.metrics = metrics
    self.router = router
    self.configuration = configuration
    self.httpResponder =
      httpResponder
      ?? BannerResponder(serverName: configuration.serverName, services: router.serviceNames)
    self.frameBuffer = sharesFrameBuffer ? SharedFrameBuffer() : nil
    self.blockCache = sharesFrameBuffer ? NGHTTP2BlockCache() : nil
  }

  func borrowHeaderBlock() -> IncomingHeaderBlock {
    spareHeaderBlocks.popLast() ?? IncomingHeaderBlock()
  }

  func borrowOutboundBuffer() -> [UInt8] {
    guard let buffer = spareOutboundBuffers.popLast() else { return [] }
    spareOutboundBytes -= buffer.capacity
    return buffer
  }

  /// Takes `buffer` (leaving it empty, without capacity) if it is worth keeping.
  func giveBack(outbound buffer: inout [UInt8]) {
    var taken: [UInt8] = []
    swap(&taken, &buffer)
    guard taken.capacity > 0, taken.capacity <= GRPCServerConnection.keptOutboundCapacity,
      spareOutboundBytes + taken.capacity <= Self.maxSpareOutboundBytes
    else { return }
    taken.removeAll(keepingCapacity: true)
    spareOutboundBytes += taken.capacity
    spareOutboundBuffers.append(taken)
  }

  /// The loop went quiet: its spare buffers are not kept for calls that
  /// may not come.
  func releaseSpareOutboundBuffers() {
    spareOutboundBuffers = []
    spareOutboundBytes = 0
  }

  func giveBack(_ block: IncomingHeaderBlock) {
    block.clear()
    if spareHeaderBlocks.count < Self.maxSpareHeaderBlocks { spareHeaderBlocks.append(block) }
  }

  func route(_ path: [UInt8]) -> Router.Route {
    routeCall(path).route
  }

  /// The route, and the found method's counters on this loop: kept with
  /// the cached route, so counting a call costs no lookup of its own.
  func routeCall(_ path: [UInt8]) -> (route: Router.Route, metrics: GRPCMethodMetrics?) {
    // The calls of a loop mostly repeat one method: the route found last
    // is tried before hashing the path.
    if let lastRoute, lastRoute.matches(path) { return (lastRoute.route, lastRoute.metrics) }
    let key = Self.fnv1a(path)
    let known = knownRoutes[key]
    if let known, known.matches(path) {
      lastRoute = known
      return (known.route, known.metrics)
    }
    let route = router.route(path: String(decoding: path, as: UTF8.self))
    guard case .found(_, let service, let method) = route else { return (route, nil) }
    let methodMetrics = metrics?.method(service: service, method: method)
    // A colliding path is routed each time rather than evicting the other.
    if known == nil, knownRoutes.count < Self.maxKnownRoutes {
      let found = KnownRoute(path: path, route: route, metrics: methodMetrics)
      knownRoutes[key] = found
      lastRoute = found
    }
    return (route, methodMetrics)
  }

  private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
  }
}

/// A cached route: a class, so a lookup hands out one reference instead of
/// copying the path, the service and two names.
private final class KnownRoute {
  let path: [UInt8]
  let route: Router.Route
  let metrics: GRPCMethodMetrics?

  init(path: [UInt8], route: Router.Route, metrics: GRPCMethodMetrics?) {
    self.path = path
    self.route = route
    self.metrics = metrics
  }

  /// `path == self.path`, compared as memory: Array's `==` went element by
  /// element, about 270 instructions for a gRPC path on every call.
  func matches(_ other: [UInt8]) -> Bool {
    guard other.count == path.count else { return false }
    return path.withUnsafeBytes { mine in
      other.withUnsafeBytes { theirs in
        guard let mine = mine.baseAddress, let theirs = theirs.baseAddress else { return true }
        return memcmp(mine, theirs, path.count) == 0
      }
    }
  }
}
