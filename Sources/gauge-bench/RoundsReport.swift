/// What the two scenarios that send single updates to many connections
/// (`connections`, `socket-floor`) report the same way: how many rounds
/// reached everyone, what was delivered, how late, and at what CPU cost.
extension JSONLine {
  mutating func addRounds(
    _ rounds: Int, reachingAll complete: Int, connections: Int, delivery: DeliveryTally,
    meter: CPUMeter
  ) {
    add("rounds", rounds)
    add("rounds_reaching_all", complete)
    add("delivered", delivery.deliveredEver)
    add("expected", UInt64(rounds) * UInt64(connections))
    add(latency: delivery.latency, prefix: "")
    add("subscriber_failures", delivery.failed)
    meter.report(into: &self)
    meter.report(per: "delivery", count: delivery.deliveredEver, into: &self)
  }
}
