import GRPCClient
import GRPCCore
import GaugeIO

/// The load generator's event loops: one thread each, every connection and
/// call living on one of them and driven by callbacks, never a thread per
/// stream.
final class LoadLoops: Sendable {
  let address: SocketAddress
  /// How every connection is made (TLS with `--tls` or `--cacert`).
  let configuration: ClientConfiguration
  private let group: EventLoopGroup

  init(
    count: Int, address: SocketAddress, configuration: ClientConfiguration = ClientConfiguration()
  ) throws(IOError) {
    self.address = address
    self.configuration = configuration
    group = try EventLoopGroup(threads: count)
    group.start()
  }

  var loops: [EventLoop] { group.loops }

  /// Runs `body` on `loop` and blocks until it calls its completion.
  func run<Result: Sendable>(
    on loop: EventLoop,
    _ body: @escaping @Sendable (EventLoop, @escaping @Sendable (Result) -> Void) -> Void
  ) -> Result {
    let done = Rendezvous<Result>()
    loop.execute { body(loop, done.deliver) }
    return done.wait(for: 1)![0]
  }

  /// Starts `body` on each of `loops` (all by default) at once; the
  /// returned handle waits for their results.
  func startOnEach<Result: Sendable>(
    _ loops: [EventLoop]? = nil,
    _ body: @escaping @Sendable (Int, EventLoop, @escaping @Sendable (Result) -> Void) -> Void
  ) -> PendingResults<Result> {
    let chosen = loops ?? self.loops
    let done = Rendezvous<(Int, Result)>()
    for (index, loop) in chosen.enumerated() {
      loop.execute { body(index, loop) { done.deliver((index, $0)) } }
    }
    return PendingResults(rendezvous: done, count: chosen.count)
  }

  /// `startOnEach`, then waits; nil when `timeout` passes first.
  func runOnEach<Result: Sendable>(
    _ loops: [EventLoop]? = nil, timeout: Duration? = nil,
    _ body: @escaping @Sendable (Int, EventLoop, @escaping @Sendable (Result) -> Void) -> Void
  ) -> [Result]? {
    startOnEach(loops, body).wait(timeout: timeout)
  }

  func stop() {
    group.stopAndJoin()
  }

  /// Opens `count` connections on `loop`; call it on that loop's thread.
  /// Each connect waits for its TCP handshake, which on loopback is quick.
  static func connect(
    _ count: Int, to address: SocketAddress, on loop: EventLoop,
    configuration: ClientConfiguration
  ) throws(IOError) -> [GRPCChannel] {
    var channels: [GRPCChannel] = []
    channels.reserveCapacity(count)
    for _ in 0..<count {
      channels.append(
        try GRPCChannel.connect(
          to: address, on: loop, configuration: configuration, connectTimeout: .seconds(10)))
    }
    return channels
  }

  /// How `total` items split over `parts` as evenly as possible: part `index`'s share.
  static func share(of total: Int, part index: Int, of parts: Int) -> Int {
    total / parts + (index < total % parts ? 1 : 0)
  }
}

/// Results that loops deliver later, one per loop.
struct PendingResults<Result: Sendable> {
  fileprivate let rendezvous: Rendezvous<(Int, Result)>
  fileprivate let count: Int

  /// In loop order; nil when `timeout` passes first.
  func wait(timeout: Duration? = nil) -> [Result]? {
    rendezvous.wait(for: count, timeout: timeout)?.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
