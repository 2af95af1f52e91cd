import GaugeDomain
import GaugeJSON

/// A widget as the REST face sends it: `{"id", "name", "content":
/// {"template", <template fields>, <shared fields>}, "revision",
/// "created_at", "updated_at"}`, template fields flat inside `content`,
/// absent optional fields left out.
package enum RESTWidgetJSON {
  package static func json(_ widget: Widget) -> JSONValue {
    .object([
      ("id", .string(widget.id)),
      ("name", .string(widget.name)),
      ("content", content(widget.content)),
      ("revision", .number(Double(widget.revision))),
      ("created_at", .string(RFC3339Time.format(unixMilliseconds: widget.createdAtMs))),
      ("updated_at", .string(RFC3339Time.format(unixMilliseconds: widget.updatedAtMs))),
    ])
  }

  package static func content(_ content: Content) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    func add(_ key: String, _ text: String?) {
      if let text { members.append((key, .string(text))) }
    }
    let template = content.template
    members.append(("template", .string(template.name)))
    switch template {
    case .gauge(let gauge):
      members.append(("value", .number(gauge.value)))
      members.append(("min_value", .number(gauge.minValue)))
      members.append(("max_value", .number(gauge.maxValue)))
      members.append(("style", .string(gauge.style.schemaName)))
      if !gauge.gradient.isEmpty {
        members.append(("gradient", .array(gauge.gradient.map(JSONValue.string))))
      }
      if !gauge.marks.isEmpty {
        members.append(("marks", .array(gauge.marks.map(mark))))
      }
      add("current_value_label", gauge.currentValueLabel)
      add("min_label", gauge.minLabel)
      add("max_label", gauge.maxLabel)
    case .progress(let progress):
      members.append(("value", .number(progress.value)))
    case .value(let plain):
      members.append(("value", .number(plain.value)))
      if let minValue = plain.minValue { members.append(("min_value", .number(minValue))) }
      if let maxValue = plain.maxValue { members.append(("max_value", .number(maxValue))) }
    }
    add("label", content.label)
    add("subtitle", content.subtitle)
    add("icon", content.icon)
    add("unit", content.unit)
    if content.trend != .unspecified { add("trend", content.trend.schemaName) }
    add("accent_color", content.accentColor)
    add("background_color", content.backgroundColor)
    add("text_color", content.textColor)
    return .object(members)
  }

  private static func mark(_ mark: Mark) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("value", .number(mark.value))]
    if let label = mark.label { members.append(("label", .string(label))) }
    return .object(members)
  }
}
