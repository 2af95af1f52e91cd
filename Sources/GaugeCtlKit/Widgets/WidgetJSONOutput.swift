import GaugeDomain
import GaugeJSON

/// Widgets as JSON for `--json`: the schema's field names and nesting, enum
/// values by name, absent fields left out. `put -f` reads this form back.
enum WidgetJSONOutput {
  static func widget(_ widget: Widget) -> JSONValue {
    .object([
      ("id", .string(widget.id)), ("name", .string(widget.name)),
      ("content", content(widget.content)), ("revision", .number(Double(widget.revision))),
      ("created_at_ms", .number(Double(widget.createdAtMs))),
      ("updated_at_ms", .number(Double(widget.updatedAtMs))),
    ])
  }

  static func content(_ content: Content) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    switch content.template {
    case .gauge(let gauge):
      var fields: [(key: String, value: JSONValue)] = [
        ("value", .number(gauge.value)), ("min_value", .number(gauge.minValue)),
        ("max_value", .number(gauge.maxValue)),
      ]
      if gauge.style != .automatic {
        fields.append(("style", .string(EnumNames.name(of: gauge.style))))
      }
      if !gauge.gradient.isEmpty {
        fields.append(("gradient", .array(gauge.gradient.map(JSONValue.string))))
      }
      if !gauge.marks.isEmpty {
        fields.append(
          (
            "marks",
            .array(
              gauge.marks.map { mark in
                var markFields: [(key: String, value: JSONValue)] = [("value", .number(mark.value))]
                if let label = mark.label { markFields.append(("label", .string(label))) }
                return .object(markFields)
              })
          ))
      }
      optional(gauge.currentValueLabel, "current_value_label", into: &fields)
      optional(gauge.minLabel, "min_label", into: &fields)
      optional(gauge.maxLabel, "max_label", into: &fields)
      members.append(("gauge", .object(fields)))
    case .progress(let progress):
      members.append(("progress", .object([("value", .number(progress.value))])))
    case .value(let value):
      var fields: [(key: String, value: JSONValue)] = [("value", .number(value.value))]
      if let minValue = value.minValue { fields.append(("min_value", .number(minValue))) }
      if let maxValue = value.maxValue { fields.append(("max_value", .number(maxValue))) }
      members.append(("value", .object(fields)))
    }
    optional(content.label, "label", into: &members)
    optional(content.subtitle, "subtitle", into: &members)
    optional(content.icon, "icon", into: &members)
    optional(content.unit, "unit", into: &members)
    if content.trend != .unspecified {
      members.append(("trend", .string(EnumNames.name(of: content.trend))))
    }
    optional(content.accentColor, "accent_color", into: &members)
    optional(content.backgroundColor, "background_color", into: &members)
    optional(content.textColor, "text_color", into: &members)
    return .object(members)
  }

  private static func optional(
    _ text: String?, _ key: String, into members: inout [(key: String, value: JSONValue)]
  ) {
    if let text { members.append((key, .string(text))) }
  }
}
