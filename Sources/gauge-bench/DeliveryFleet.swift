/// Subscribers on several loops, as a fan-out measurement sees them
/// (`SubscriberFleet` over gRPC, `SSESubscriberFleet` over event streams).
protocol DeliveryFleet {
  var connections: Int { get }
  /// What every loop's subscribers counted so far.
  func tally(using load: LoadLoops) -> DeliveryTally
  func close(using load: LoadLoops)
}

extension SubscriberFleet: DeliveryFleet {}
