import GaugeDomain
import GaugeJSON
import GaugeWire
import WidgetJSON

/// `gaugectl watch --events`: one line per Subscribe event, as
/// `key=value` words or, with `--json`, a JSON object.
enum EventLine {
  static func text(_ event: WidgetEventWire) -> String {
    switch event {
    case .upsert(let widget):
      "upsert id=\(widget.id) revision=\(widget.revision) value=\(mainValue(widget.content))"
    case .removed(let id, let revision): "removed id=\(id) revision=\(revision)"
    case .value(let id, let value, _, let revision):
      "value id=\(id) revision=\(revision) value=\(JSONWriter.format(value))"
    case .synced(let revision): "synced revision=\(revision)"
    case .reset(let revision): "reset revision=\(revision)"
    }
  }

  static func json(_ event: WidgetEventWire) -> String {
    let members: [(key: String, value: JSONValue)] =
      switch event {
      case .upsert(let widget):
        [
          ("event", .string("upsert")), ("revision", .number(Double(widget.revision))),
          ("widget", RESTWidgetJSON.json(widget)),
        ]
      case .removed(let id, let revision):
        [
          ("event", .string("removed")), ("revision", .number(Double(revision))),
          ("id", .string(id)),
        ]
      case .value(let id, let value, let updatedAtMs, let revision):
        [
          ("event", .string("value")), ("revision", .number(Double(revision))),
          ("id", .string(id)), ("value", .number(value)),
          ("updated_at_ms", .number(Double(updatedAtMs))),
        ]
      case .synced(let revision):
        [("event", .string("synced")), ("revision", .number(Double(revision)))]
      case .reset(let revision):
        [("event", .string("reset")), ("revision", .number(Double(revision)))]
      }
    return JSONWriter.compact(.object(members))
  }

  private static func mainValue(_ content: Content) -> String {
    switch content.template {
    case .gauge(let gauge): JSONWriter.format(gauge.value)
    case .progress(let progress): JSONWriter.format(progress.value)
    case .value(let value): JSONWriter.format(value.value)
    }
  }
}
