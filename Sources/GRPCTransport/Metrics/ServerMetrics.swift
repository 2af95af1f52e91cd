import GaugeIO
import GaugeMetrics
import Synchronization

/// The transport's metrics across every loop of a server. Each loop counts
/// in its own `LoopMetrics`; `collect` hops to each loop in turn (the
/// loops' task queues, as any cross-thread work here), takes a snapshot
/// there, and adds them up. Counting thus costs a plain increment, and a
/// scrape a few hops.
public final class ServerMetrics: Sendable {
  private let traits: [String: RPCMethodTraits]
  private let accessLog: AccessLog?
  private let shards = Mutex<[LoopShard]>([])

  /// `traits`, by `/service/method`, give each method its `grpc_type`; a
  /// method without them counts as unary. `accessLog` logs calls and
  /// requests as they end.
  public init(traits: [String: RPCMethodTraits] = [:], accessLog: AccessLog? = nil) {
    self.traits = traits
    self.accessLog = accessLog
  }

  /// The counters for `loop`, made once per loop when the server is built.
  func shard(for loop: EventLoop) -> LoopMetrics {
    let metrics = LoopMetrics(traits: traits, accessLog: accessLog)
    shards.withLock { $0.append(LoopShard(loop: loop, metrics: metrics)) }
    return metrics
  }

  /// Calls `done` with the sum of every loop's counters, on the thread of
  /// whichever loop answers last (or at once when there is none).
  public func collect(_ done: @escaping @Sendable (Snapshot) -> Void) {
    let shards = self.shards.withLock { $0 }
    guard !shards.isEmpty else { return done(Snapshot()) }
    let gathered = Mutex<(snapshot: Snapshot, left: Int)>((Snapshot(), shards.count))
    for shard in shards {
      shard.loop.execute {
        // On the shard's own loop: the only thread that writes it.
        let part = shard.metrics.snapshot
        let finished: Snapshot? = gathered.withLock {
          $0.snapshot.add(part)
          $0.left -= 1
          return $0.left == 0 ? $0.snapshot : nil
        }
        if let finished { done(finished) }
      }
    }
  }

  /// Runs `work` every `interval` on the first loop's thread, once the
  /// loops run, until they stop: for reports made from the counters (a
  /// summary in the log) without a thread of their own.
  public func repeatEvery(_ interval: Duration, _ work: @escaping @Sendable () -> Void) {
    guard let first = shards.withLock({ $0.first }) else { return }
    let loop = first.loop
    @Sendable func arm() {
      _ = loop.schedule(after: interval) {
        work()
        arm()
      }
    }
    loop.execute { arm() }
  }

  /// Every loop's counters added up.
  public struct Snapshot: Sendable {
    public var methods: [String: GRPCMethodMetrics.Snapshot] = [:]
    public var routes: [HTTPRouteMetrics.Snapshot] = []
    public var connections: [String: Int] = [:]
    /// The modules' own families (`LoopMetricsPart`), added up.
    public var parts: [MetricFamily] = []

    mutating func add(_ other: Snapshot) {
      for (path, method) in other.methods {
        if methods[path] == nil {
          methods[path] = method
        } else {
          methods[path]!.add(method)
        }
      }
      for route in other.routes {
        if let index = routes.firstIndex(where: { $0.face == route.face && $0.route == route.route }
        ) {
          routes[index].add(route)
        } else {
          routes.append(route)
        }
      }
      connections.merge(other.connections, uniquingKeysWith: +)
      parts = parts.merged(with: other.parts)
    }
  }
}

/// A loop and its counters. @unchecked Sendable: the counters travel to
/// other threads only inside this box, and are read or written only in
/// work run on `loop`.
private struct LoopShard: @unchecked Sendable {
  let loop: EventLoop
  let metrics: LoopMetrics
}
