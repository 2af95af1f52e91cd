import GRPCClient
import GaugeIO

/// Subscribe streams spread over connections and loops: connection `c`
/// carries up to `perConnection` streams and lives on loop `c % loops`.
/// The streams speak `callProtocol`; the connections are HTTP/2 either way.
struct SubscriberFleet: Sendable {
  let groups: [LoopBound<SubscriberGroup>]
  let subscribers: Int
  let connections: Int

  /// Connects (one GetWidget per connection), without subscribing yet:
  /// to `addresses` when given, each loop's connections to the next in
  /// turn, else to the load's address.
  static func connect(
    subscribers: Int, perConnection: Int, callProtocol: CallProtocol = .grpc,
    on loops: [EventLoop], using load: LoadLoops, window: MeasureWindow,
    addresses: [SocketAddress] = [], timeout: Duration = .seconds(120)
  ) throws(BenchFailure) -> SubscriberFleet {
    let addresses = addresses.isEmpty ? [load.address] : addresses
    let configuration = load.configuration
    let connections = (subscribers + perConnection - 1) / perConnection
    let loopCount = loops.count
    let connected: [Result<LoopBound<SubscriberGroup>, BenchFailure>]? = load.runOnEach(
      loops, timeout: timeout
    ) { index, loop, done in
      let counts = stride(from: index, to: connections, by: loopCount).map { connection in
        min(perConnection, subscribers - connection * perConnection)
      }
      let group = SubscriberGroup(window: window, callProtocol: callProtocol)
      let bound = LoopBound(group, on: loop)
      group.connect(
        counts, to: addresses[index % addresses.count], on: loop, configuration: configuration
      ) { result in
        done(result.map { _ in bound })
      }
    }
    guard let connected else {
      throw BenchFailure("\(connections) connections were not ready within \(timeout)")
    }
    var groups: [LoopBound<SubscriberGroup>] = []
    for result in connected { groups.append(try result.get()) }
    return SubscriberFleet(groups: groups, subscribers: subscribers, connections: connections)
  }

  /// Opens every stream and waits until each has had its `synced`.
  func subscribe(
    ids: [String], valueDeltas: Bool = false, using load: LoadLoops,
    timeout: Duration = .seconds(120)
  ) throws(BenchFailure) {
    let groups = self.groups
    let synced: [Bool]? = load.runOnEach(groups.map(\.loop), timeout: timeout) {
      index, _, done in
      groups[index].value.subscribe(ids: ids, valueDeltas: valueDeltas) { done(true) }
    }
    guard synced != nil else {
      throw BenchFailure("\(subscribers) subscribers were not all synced within \(timeout)")
    }
    let tally = tally(using: load)
    guard tally.failed == 0 else {
      throw BenchFailure(
        "\(tally.failed) of \(subscribers) subscribers failed: \(tally.firstFailure ?? "")")
    }
  }

  /// `connect` then `subscribe`.
  static func open(
    subscribers: Int, perConnection: Int, callProtocol: CallProtocol = .grpc, ids: [String],
    valueDeltas: Bool = false, on loops: [EventLoop], using load: LoadLoops,
    window: MeasureWindow, addresses: [SocketAddress] = []
  ) throws(BenchFailure) -> SubscriberFleet {
    let fleet = try connect(
      subscribers: subscribers, perConnection: perConnection, callProtocol: callProtocol,
      on: loops, using: load, window: window, addresses: addresses)
    try fleet.subscribe(ids: ids, valueDeltas: valueDeltas, using: load)
    return fleet
  }

  /// What every group counted so far.
  func tally(using load: LoadLoops) -> DeliveryTally {
    DeliveryGroups.tally(groups, using: load)
  }

  /// Waits until every group has received at least `perSubscriber` live
  /// events per subscriber; false when `timeout` passes first.
  func awaitDeliveries(
    perSubscriber: UInt64, using load: LoadLoops, timeout: Duration
  ) -> Bool {
    DeliveryGroups.awaitDeliveries(
      groups, perSubscriber: perSubscriber, using: load, timeout: timeout)
  }

  func close(using load: LoadLoops) {
    DeliveryGroups.close(groups, using: load)
  }
}
