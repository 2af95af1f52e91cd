import GaugeIO

/// Event-stream subscribers spread over loops, one connection each:
/// loop `i` of `n` opens every `n`th of them.
struct SSESubscriberFleet: DeliveryFleet {
  let groups: [LoopBound<SSESubscriberGroup>]
  let subscribers: Int
  var connections: Int { subscribers }

  /// Connects, asks for `ids`' events and waits until every stream has had
  /// its `synced`; throws when any failed.
  static func open(
    subscribers: Int, ids: [String], on loops: [EventLoop], using load: LoadLoops,
    window: MeasureWindow, timeout: Duration = .seconds(120)
  ) throws(BenchFailure) -> SSESubscriberFleet {
    let address = load.address
    let loopCount = loops.count
    let opened: [Result<LoopBound<SSESubscriberGroup>, BenchFailure>]? = load.runOnEach(
      loops, timeout: timeout
    ) { index, loop, done in
      let group = SSESubscriberGroup(window: window)
      let bound = LoopBound(group, on: loop)
      let count = LoadLoops.share(of: subscribers, part: index, of: loopCount)
      group.open(count, to: address, ids: ids, on: loop) { result in
        done(result.map { bound })
      }
    }
    guard let opened else {
      throw BenchFailure("\(subscribers) event streams were not all synced within \(timeout)")
    }
    var groups: [LoopBound<SSESubscriberGroup>] = []
    for result in opened { groups.append(try result.get()) }
    let fleet = SSESubscriberFleet(groups: groups, subscribers: subscribers)
    let tally = fleet.tally(using: load)
    guard tally.failed == 0 else {
      fleet.close(using: load)
      throw BenchFailure(
        "\(tally.failed) of \(subscribers) event streams failed: \(tally.firstFailure ?? "")")
    }
    return fleet
  }

  func tally(using load: LoadLoops) -> DeliveryTally {
    DeliveryGroups.tally(groups, using: load)
  }

  func close(using load: LoadLoops) {
    DeliveryGroups.close(groups, using: load)
  }
}
