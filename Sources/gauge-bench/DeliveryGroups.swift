import GaugeIO

/// One loop's receivers of timed events, as the main thread sees them
/// (`SubscriberGroup`, `SocketFloorReceivers`). Used on its loop only;
/// `SendableMetatype` because the helpers below reach it from closures
/// sent to those loops.
protocol DeliveryGroup: AnyObject, SendableMetatype {
  var tally: DeliveryTally { get }
  /// Runs `callback` once `target` events have arrived in all.
  func whenDelivered(atLeast target: UInt64, _ callback: @escaping () -> Void)
  func close()
}

/// What the main thread asks of every loop's group at once.
enum DeliveryGroups {
  /// What every group counted so far.
  static func tally<Group: DeliveryGroup>(
    _ groups: [LoopBound<Group>], using load: LoadLoops
  ) -> DeliveryTally {
    let tallies: [DeliveryTally]? = load.runOnEach(groups.map(\.loop)) { index, _, done in
      done(groups[index].value.tally)
    }
    var total = DeliveryTally()
    for tally in tallies ?? [] { total.merge(tally) }
    return total
  }

  /// Waits until every group has received at least `perSubscriber` events
  /// per subscriber; false when `timeout` passes first.
  static func awaitDeliveries<Group: DeliveryGroup>(
    _ groups: [LoopBound<Group>], perSubscriber: UInt64, using load: LoadLoops,
    timeout: Duration
  ) -> Bool {
    let reached: [Bool]? = load.runOnEach(groups.map(\.loop), timeout: timeout) {
      index, _, done in
      let group = groups[index].value
      group.whenDelivered(atLeast: perSubscriber * UInt64(group.tally.subscribers)) {
        done(true)
      }
    }
    return reached != nil
  }

  static func close<Group: DeliveryGroup>(_ groups: [LoopBound<Group>], using load: LoadLoops) {
    _ = load.runOnEach(groups.map(\.loop)) { index, _, done in
      groups[index].value.close()
      done(true)
    }
  }
}
