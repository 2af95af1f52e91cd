import GRPCTransport
import GaugeDomain
import GaugeMetrics

/// Refused writes by the rule that refused them, and PublishValues items
/// by result, on one loop (see `LoopMetricsPart`).
///
/// A validation failure counts once per violation, under the field it
/// names with list indices dropped (`content.gauge.max_value`,
/// `content.marks[].value`): the domain names each rule by its field, and
/// the schema bounds them. The other refusals count under their kind.
final class WriteMetrics: LoopMetricsPart {
  private var rejected: [String: UInt64] = [:]
  private var published: [String: UInt64] = [:]

  static func on(_ loop: LoopMetrics?) -> WriteMetrics? {
    loop?.part(WriteMetrics.self) { WriteMetrics() }
  }

  func rejected(_ error: WidgetError) {
    for rule in Self.rules(error) { rejected[rule, default: 0] &+= 1 }
  }

  /// `result`: `accepted`, or the gRPC code name an item was refused with.
  func published(_ result: String, count: Int = 1) {
    guard count > 0 else { return }
    published[result, default: 0] &+= UInt64(count)
  }

  static func rules(_ error: WidgetError) -> [String] {
    switch error {
    case .invalid(let violations): violations.map { rule(field: $0.field) }
    case .notFound: ["not_found"]
    case .unavailable: ["unavailable"]
    case .preconditionFailed: ["precondition_failed"]
    case .alreadyExists: ["already_exists"]
    case .readOnly: ["read_only"]
    case .outsideReach: ["outside_reach"]
    case .aborted: ["aborted"]
    case .resourceExhausted: ["resource_exhausted"]
    }
  }

  /// `marks[2].value` → `marks[].value`.
  static func rule(field: String) -> String {
    var out = ""
    var inIndex = false
    for character in field {
      if character == "[" {
        inIndex = true
        out.append("[")
      } else if character == "]" {
        inIndex = false
        out.append("]")
      } else if !inIndex {
        out.append(character)
      }
    }
    return out
  }

  var families: [MetricFamily] {
    Self.families(rejected: rejected, published: published)
  }

  static var empty: [MetricFamily] { families(rejected: [:], published: ["accepted": 0]) }

  private static func families(rejected: [String: UInt64], published: [String: UInt64])
    -> [MetricFamily]
  {
    [
      MetricFamily(
        name: "gauged_writes_rejected_total",
        help:
          "Writes refused over gRPC, gRPC-Web, Connect and REST, by the rule (field) that refused.",
        kind: .counter,
        series: rejected.sorted { $0.key < $1.key }.map {
          MetricSeries(labels: [MetricLabel("rule", $0.key)], Double($0.value))
        }),
      MetricFamily(
        name: "gauged_publish_values_total", help: "PublishValues items, by result.",
        kind: .counter,
        series: published.sorted { $0.key < $1.key }.map {
          MetricSeries(labels: [MetricLabel("result", $0.key)], Double($0.value))
        }),
    ]
  }
}
