import GRPCCore

/// What a closed-loop unary run counted.
struct UnaryTally: Sendable {
  var completed: UInt64 = 0
  var failed: UInt64 = 0
  var latency = LatencyHistogram()
  var firstFailure: String?

  mutating func merge(_ other: UnaryTally) {
    completed += other.completed
    failed += other.failed
    latency.merge(other.latency)
    if firstFailure == nil { firstFailure = other.firstFailure }
  }
}
