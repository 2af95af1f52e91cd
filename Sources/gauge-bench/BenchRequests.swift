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

/// An encoded request whose last field is the value, a double: sending it
/// again with another value rewrites those 8 bytes in place instead of
/// encoding (and allocating) a new message each time.
struct ValueRequest {
  private(set) var bytes: [UInt8]

  /// `UpdateWidgetRequest { id, content { value { value } } }`, value-only.
  static func updateWidget(id: String) -> ValueRequest {
    ValueRequest(
      WidgetWire.encodeUpdateWidgetRequest(
        WidgetUpdate(id: id, content: ContentPatch(template: .value(PlainValuePatch(value: 0))))),
      valueKey: 1 << 3 | 1)
  }

  /// `ValueUpdate { id, value }`, one PublishValues item.
  static func valueUpdate(id: String) -> ValueRequest {
    ValueRequest(WidgetWire.encodeValueUpdate(id: id, value: 0), valueKey: 2 << 3 | 1)
  }

  /// protobuf-c writes fields in number order, so the innermost value,
  /// the highest-numbered field at each level, comes last.
  private init(_ bytes: [UInt8], valueKey: UInt8) {
    precondition(
      bytes.count > 9 && bytes[bytes.count - 9] == valueKey,
      "the encoded request does not end with its value")
    self.bytes = bytes
  }

  mutating func set(_ value: Double) {
    let offset = bytes.count - 8
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
    }
  }
}
