import GRPCTransport
import GaugeMetrics

/// Subscriptions open and events sent, by face, on one loop: gRPC's
/// Subscribe, the same over gRPC-Web or Connect, and Server-Sent Events.
/// Written only on the loop's thread (see `LoopMetricsPart`).
final class SubscriptionMetrics: LoopMetricsPart {
  enum Face: Int, CaseIterable {
    case grpc
    case web
    case events

    var label: String {
      switch self {
      case .grpc: "grpc"
      case .web: "web"
      case .events: "events"
      }
    }
  }

  /// One face's counts: a subscription holds its face's and counts with
  /// a plain increment, no lookup, on every event it sends or coalesces.
  final class FaceCounts {
    var open = 0
    var sent: UInt64 = 0
    /// Summed over the faces: the family has no face label.
    var coalesced: UInt64 = 0
  }

  private let faces = Face.allCases.map { _ in FaceCounts() }
  static let coalescedName = "gauged_events_coalesced_total"

  /// This loop's counts for `face`, or nil when the server keeps no metrics.
  static func on(_ loop: LoopMetrics?, face: Face) -> FaceCounts? {
    loop?.part(SubscriptionMetrics.self) { SubscriptionMetrics() }.faces[face.rawValue]
  }

  var families: [MetricFamily] {
    Self.families(
      open: faces.map(\.open), sent: faces.map(\.sent),
      coalesced: faces.reduce(0) { $0 &+ $1.coalesced })
  }

  /// With zeros: a scrape shows the families before any loop has had a
  /// subscription.
  static var empty: [MetricFamily] {
    families(
      open: [Int](repeating: 0, count: Face.allCases.count),
      sent: [UInt64](repeating: 0, count: Face.allCases.count), coalesced: 0)
  }

  private static func families(open: [Int], sent: [UInt64], coalesced: UInt64)
    -> [MetricFamily]
  {
    [
      MetricFamily(
        name: "gauged_subscriptions", help: "Open subscriptions, by face.", kind: .gauge,
        series: Face.allCases.map {
          MetricSeries(labels: [MetricLabel("face", $0.label)], Double(open[$0.rawValue]))
        }),
      MetricFamily(
        name: "gauged_events_sent_total", help: "Widget events sent to subscribers, by face.",
        kind: .counter,
        series: Face.allCases.map {
          MetricSeries(labels: [MetricLabel("face", $0.label)], Double(sent[$0.rawValue]))
        }),
      MetricFamily(
        name: coalescedName,
        help: "Events a slow subscriber never got because a newer one for the same widget "
          + "replaced them while it waited.", kind: .counter,
        series: [MetricSeries(Double(coalesced))]),
    ]
  }
}
