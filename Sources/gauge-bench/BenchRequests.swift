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

  static func getRequest(id: String) -> [UInt8] {
    WidgetWire.encodeGetWidgetRequest(id: id)
  }

  static func subscribe(ids: [String]) -> [UInt8] {
    WidgetWire.encodeSubscribeRequest(SubscribeQuery(ids: ids))
  }
}
