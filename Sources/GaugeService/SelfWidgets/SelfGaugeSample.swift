import GRPCTransport
import GaugeMetrics

/// What gauged's own gauges are made of at one moment: the counters summed
/// over every loop (`ServerMetrics.Snapshot`) and the store's figures.
struct SelfGaugeSample: Sendable {
  /// Seconds on a monotonic clock.
  var time: Double
  var connections: Int
  var subscriptions: Int
  /// Events sent to subscribers since start, every face.
  var eventsSent: UInt64
  /// The store's last revision: one per accepted change.
  var revision: UInt64
  /// Every unary method's handling times since start.
  var unaryHandling: HistogramSnapshot?
  var storeQueueDepth: Int

  init(
    time: Double, connections: Int, subscriptions: Int, eventsSent: UInt64, revision: UInt64,
    unaryHandling: HistogramSnapshot?, storeQueueDepth: Int
  ) {
    self.time = time
    self.connections = connections
    self.subscriptions = subscriptions
    self.eventsSent = eventsSent
    self.revision = revision
    self.unaryHandling = unaryHandling
    self.storeQueueDepth = storeQueueDepth
  }

  init(
    _ snapshot: ServerMetrics.Snapshot, time: Double, revision: UInt64, storeQueueDepth: Int
  ) {
    var unary: HistogramSnapshot?
    for method in snapshot.methods.values where method.type == .unary {
      if unary == nil { unary = method.handling } else { unary!.add(method.handling) }
    }
    self.init(
      time: time, connections: snapshot.connections.values.reduce(0, +),
      subscriptions: Int(Self.sum(of: "gauged_subscriptions", in: snapshot.parts)),
      eventsSent: UInt64(Self.sum(of: "gauged_events_sent_total", in: snapshot.parts)),
      revision: revision, unaryHandling: unary, storeQueueDepth: storeQueueDepth)
  }

  private static func sum(of name: String, in families: [MetricFamily]) -> Double {
    families.first { $0.name == name }?.series.reduce(0) {
      guard case .number(let value) = $1.value else { return $0 }
      return $0 + value
    } ?? 0
  }
}

/// The readings between two samples, as the widgets show them.
struct SelfGaugeReadings: Sendable, Equatable {
  var connections: Double
  var subscriptions: Double
  var writesPerSecond: Double
  var eventsPerSecond: Double
  /// Nil when no unary call ended between the samples.
  var unaryP99Milliseconds: Double?
  var storeQueueDepth: Double

  /// `ownWrites`: the changes gauged made to its own widgets between the
  /// samples, which are not the clients' writes.
  init(from previous: SelfGaugeSample, to current: SelfGaugeSample, ownWrites: UInt64) {
    let elapsed = max(current.time - previous.time, 0.001)
    connections = Double(current.connections)
    subscriptions = Double(current.subscriptions)
    let changes = current.revision > previous.revision ? current.revision - previous.revision : 0
    writesPerSecond = Double(changes > ownWrites ? changes - ownWrites : 0) / elapsed
    let events =
      current.eventsSent > previous.eventsSent ? current.eventsSent - previous.eventsSent : 0
    eventsPerSecond = Double(events) / elapsed
    unaryP99Milliseconds = current.unaryHandling.flatMap { now in
      Self.quantile(0.99, of: now, since: previous.unaryHandling).map { $0 * 1000 }
    }
    storeQueueDepth = Double(current.storeQueueDepth)
  }

  /// The upper bound of the bucket that holds the `q` quantile of the
  /// observations made since `earlier` (the last bound for the +Inf bucket):
  /// what a histogram can say, and what Prometheus' histogram_quantile
  /// would place at most there.
  static func quantile(_ q: Double, of now: HistogramSnapshot, since earlier: HistogramSnapshot?)
    -> Double?
  {
    let counts = now.counts.indices.map {
      now.counts[$0] &- (earlier?.upperBounds == now.upperBounds ? earlier!.counts[$0] : 0)
    }
    let total = counts.reduce(0, &+)
    guard total > 0, let last = now.upperBounds.last else { return nil }
    let rank = (q * Double(total)).rounded(.up)
    var running: UInt64 = 0
    for (index, count) in counts.enumerated() {
      running &+= count
      if Double(running) >= rank {
        return index < now.upperBounds.count ? now.upperBounds[index] : last
      }
    }
    return last
  }
}
