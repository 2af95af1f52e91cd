import GaugeDomain
import GaugeWire

/// The requests the scenarios send, encoded through GaugeWire like any
/// client's.
enum BenchRequests {
  static let service = "/gauge.v1.WidgetService/"
  static let putWidget = service + "PutWidget"
  static let updateWidget = service + "UpdateWidget"
  static let getWidget = service + "GetWidget"
  static let publishValues = service + "PublishValues"
  static let subscribe = service + "Subscribe"

  /// `bench-00042`: ids sort in creation order.
  static func widgetID(_ index: Int) -> String {
    let digits = String(index)
    return "bench-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
  }

  /// A `value` widget without bounds, so any finite number is accepted,
  /// including a monotonic clock reading in nanoseconds.
  static func putValueWidget(id: String) -> [UInt8] {
    WidgetWire.encodePutWidgetRequest(
      WidgetPut(
        id: id, name: "bench",
        content: ContentPatch(template: .value(PlainValuePatch(value: 0)))))
  }

  /// A gauge with a label, subtitle, unit, four marks and a three-stop
  /// gradient (issue 32's widget for value deltas), with bounds wide
  /// enough for a monotonic clock reading in nanoseconds.
  static func putRichGauge(id: String) -> [UInt8] {
    let top = 1e19
    return WidgetWire.encodePutWidgetRequest(
      WidgetPut(
        id: id, name: "Error rate",
        content: ContentPatch(
          template: .gauge(
            GaugePatch(
              value: 0, minValue: 0, maxValue: top, gradient: ["green", "orange", "red"],
              marks: [0.25, 0.5, 0.75, 0.9].map { MarkPatch(value: $0 * top, label: "\($0)") },
              currentValueLabel: "now", minLabel: "0", maxLabel: "max")),
          label: "Errors", subtitle: "5-minute window, all regions", unit: "%")))
  }

  static func getRequest(id: String) -> [UInt8] {
    WidgetWire.encodeGetWidgetRequest(id: id)
  }

  static func subscribe(ids: [String], valueDeltas: Bool = false) -> [UInt8] {
    WidgetWire.encodeSubscribeRequest(SubscribeQuery(ids: ids, valueDeltas: valueDeltas))
  }
}
