import GaugeDomain
import GaugeJSON

/// A widget as the REST face sends it: `{"id", "name", "content":
/// {"template", <template fields>, <shared fields>}, "revision",
/// "created_at", "updated_at", "stale_after_ms", "stale"}`, template fields
/// flat inside `content`, absent optional fields left out (`stale` too,
/// for a widget without `stale_after_ms`, which can never be stale). Written straight into bytes (every
/// REST answer and every live event carries one); `json` reads those bytes
/// back for whoever wants a `JSONValue`, so there is one mapping.
package enum RESTWidgetJSON {
  package static func bytes(_ widget: Widget) -> [UInt8] {
    var writer = JSONByteWriter(capacity: 320)
    write(widget, into: &writer)
    return writer.bytes
  }

  /// A change that set only `widget`'s value, as event streams with value
  /// deltas send it: `{"id","value","revision","updated_at"}`.
  package static func valueDeltaBytes(_ widget: Widget) -> [UInt8] {
    var writer = JSONByteWriter(capacity: 96)
    writer.beginObject()
    writer.member("id", widget.id)
    writer.member("value", number: widget.content.mainValue)
    writer.member("revision", integer: widget.revision)
    writer.key("updated_at")
    writer.raw { RFC3339Time.appendQuoted(unixMilliseconds: widget.updatedAtMs, to: &$0) }
    writer.endObject()
    return writer.bytes
  }

  package static func json(_ widget: Widget) -> JSONValue {
    do {
      return try JSONParser.parse(String(decoding: bytes(widget), as: UTF8.self))
    } catch {
      preconditionFailure("the widget writer wrote JSON its reader refuses: \(error)")
    }
  }

  package static func write(_ widget: Widget, into writer: inout JSONByteWriter) {
    writer.beginObject()
    writer.member("id", widget.id)
    writer.member("name", widget.name)
    writer.key("content")
    write(widget.content, into: &writer)
    // Revisions stay below 2^53, where a double holds them exactly and
    // JSONWriter writes them as integers: these digits are the same.
    writer.member("revision", integer: widget.revision)
    writer.key("created_at")
    writer.raw { RFC3339Time.appendQuoted(unixMilliseconds: widget.createdAtMs, to: &$0) }
    writer.key("updated_at")
    writer.raw { RFC3339Time.appendQuoted(unixMilliseconds: widget.updatedAtMs, to: &$0) }
    if let staleAfterMs = widget.staleAfterMs {
      writer.member("stale_after_ms", integer: UInt64(clamping: staleAfterMs))
      writer.key("stale")
      writer.raw { $0.append(contentsOf: widget.stale ? "true".utf8 : "false".utf8) }
    }
    writer.endObject()
  }

  private static func write(_ content: Content, into writer: inout JSONByteWriter) {
    writer.beginObject()
    let template = content.template
    writer.member("template", template.name)
    switch template {
    case .gauge(let gauge):
      writer.member("value", number: gauge.value)
      writer.member("min_value", number: gauge.minValue)
      writer.member("max_value", number: gauge.maxValue)
      writer.member("style", gauge.style.schemaName)
      if !gauge.gradient.isEmpty {
        writer.key("gradient")
        writer.beginArray()
        for color in gauge.gradient { writer.string(color) }
        writer.endArray()
      }
      if !gauge.marks.isEmpty {
        writer.key("marks")
        writer.beginArray()
        for mark in gauge.marks {
          writer.beginObject()
          writer.member("value", number: mark.value)
          writer.member("label", mark.label)
          writer.endObject()
        }
        writer.endArray()
      }
      writer.member("current_value_label", gauge.currentValueLabel)
      writer.member("min_label", gauge.minLabel)
      writer.member("max_label", gauge.maxLabel)
    case .progress(let progress):
      writer.member("value", number: progress.value)
    case .value(let plain):
      writer.member("value", number: plain.value)
      if let minValue = plain.minValue { writer.member("min_value", number: minValue) }
      if let maxValue = plain.maxValue { writer.member("max_value", number: maxValue) }
    }
    writer.member("label", content.label)
    writer.member("subtitle", content.subtitle)
    writer.member("icon", content.icon)
    writer.member("unit", content.unit)
    if content.trend != .unspecified { writer.member("trend", content.trend.schemaName) }
    writer.member("accent_color", content.accentColor)
    writer.member("background_color", content.backgroundColor)
    writer.member("text_color", content.textColor)
    writer.endObject()
  }
}
