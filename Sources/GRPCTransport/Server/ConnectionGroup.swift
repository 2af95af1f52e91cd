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
  let frameBuffer: SharedFrameBuffer?
  /// Paths already resolved to a method: clients call the same few methods
  /// over and over. Only found methods are kept, and at most `maxKnownRoutes`,
  /// so a client sending made-up paths cannot grow it.
  private var knownRoutes: [String: Router.Route] = [:]
  private static let maxKnownRoutes = 256
  /// Blocks lent to connections while they receive a header block, and
  /// given back when it ends: a loop needs as many as it has connections
  /// in the middle of one, which is few.
  private var spareHeaderBlocks: [IncomingHeaderBlock] = []
  private static let maxSpareHeaderBlocks = 16

  /// `sharesFrameBuffer`: the connections serialize frames in one buffer,
  /// which is safe because they all run on one loop.
  public init(router: Router, configuration: ServerConfiguration, sharesFrameBuffer: Bool = true) {
    self.router = router
    self.configuration = configuration
    self.frameBuffer = sharesFrameBuffer ? SharedFrameBuffer() : nil
  }

  func borrowHeaderBlock() -> IncomingHeaderBlock {
    spareHeaderBlocks.popLast() ?? IncomingHeaderBlock()
  }

  func giveBack(_ block: IncomingHeaderBlock) {
    block.clear()
    if spareHeaderBlocks.count < Self.maxSpareHeaderBlocks { spareHeaderBlocks.append(block) }
  }

  func route(_ path: String) -> Router.Route {
    if let known = knownRoutes[path] { return known }
    let route = router.route(path: path)
    if case .found = route, knownRoutes.count < Self.maxKnownRoutes { knownRoutes[path] = route }
    return route
  }
}
