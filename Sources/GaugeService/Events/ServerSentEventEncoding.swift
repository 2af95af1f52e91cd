import GaugeDomain
import GaugeJSON
import WidgetJSON

/// Changes as Server-Sent Events (WHATWG HTML, section 9.2): an `event:`
/// line naming the kind and one `data:` line of JSON. The `id:` line is
/// the subscriber's own (see `ServerSentEventStream`), so it is not here.
enum ServerSentEventEncoding: EventEncoding {
  static func encode(_ change: WidgetChange) -> [UInt8] {
    switch change {
    case .upserted(let widget, _), .valueSet(let widget):
      return event("upsert", data: RESTWidgetJSON.bytes(widget))
    case .removed(let id, let revision):
      return event(
        "removed",
        data: JSONWriter.compact(
          .object([("id", .string(id)), ("revision", .number(Double(revision)))])))
    }
  }

  /// `event: value` with `{"id","value","revision","updated_at"}`, the
  /// time as the widget JSON writes it.
  static func encodeValue(of widget: Widget) -> [UInt8] {
    event("value", data: RESTWidgetJSON.valueDeltaBytes(widget))
  }

  static func synced(revision: UInt64) -> [UInt8] {
    Array("id: \(revision)\n".utf8) + revisionEvent("synced", revision)
  }

  static func reset(revision: UInt64) -> [UInt8] {
    revisionEvent("reset", revision)
  }

  static func idLine(_ revision: UInt64) -> [UInt8] {
    Array("id: \(revision)\n".utf8)
  }

  /// A comment: ignored by `EventSource`, but it keeps proxies from
  /// closing a quiet stream.
  static let keepalive: [UInt8] = Array(": keepalive\n\n".utf8)

  private static func revisionEvent(_ name: String, _ revision: UInt64) -> [UInt8] {
    event(name, data: "{\"revision\":\(revision)}")
  }

  /// JSON written compactly has no line break, so one `data:` line holds it.
  private static func event(_ name: String, data: String) -> [UInt8] {
    event(name, data: Array(data.utf8))
  }

  private static func event(_ name: String, data: [UInt8]) -> [UInt8] {
    var bytes = Array("event: \(name)\ndata: ".utf8)
    bytes.reserveCapacity(bytes.count + data.count + 2)
    bytes += data
    bytes += [0x0A, 0x0A]
    return bytes
  }
}
