import GaugeDomain

/// Widgets as plain text for `get`, `ls`, `put` and `set`.
enum WidgetText {
  static func templateName(_ content: Content) -> String {
    content.template.name
  }

  /// The value as people read it: `42 %`, `62.5 %` for progress.
  static func value(_ content: Content) -> String {
    switch content.template {
    case .gauge(let gauge): NumberText.withUnit(gauge.value, content.unit)
    case .progress(let progress): NumberText.format(progress.value * 100) + " %"
    case .value(let value): NumberText.withUnit(value.value, content.unit)
    }
  }

  /// `0 … 100`, or "" when the template has no bounds.
  static func range(_ content: Content) -> String {
    switch content.template {
    case .gauge(let gauge):
      "\(NumberText.format(gauge.minValue)) … \(NumberText.format(gauge.maxValue))"
    case .progress:
      "0 … 1"
    case .value(let value):
      switch (value.minValue, value.maxValue) {
      case (nil, nil): ""
      case (let low, let high):
        "\(low.map(NumberText.format) ?? "") … \(high.map(NumberText.format) ?? "")"
      }
    }
  }

  /// `gauge 42 % in 0 … 100`.
  static func summary(_ content: Content) -> String {
    let range = range(content)
    return "\(templateName(content)) \(value(content))" + (range.isEmpty ? "" : " in \(range)")
  }

  /// `get`: one field per line, only the fields that are set.
  static func details(_ widget: Widget) -> String {
    let content = widget.content
    var rows: [(String, String)] = [
      ("id", widget.id), ("name", widget.name), ("template", templateName(content)),
      ("value", value(content)),
    ]
    let range = range(content)
    if !range.isEmpty { rows.append(("range", range)) }
    if case .gauge(let gauge) = content.template {
      rows.append(("style", gauge.style.schemaName))
      if !gauge.marks.isEmpty {
        rows.append(
          (
            "marks",
            gauge.marks.map { mark in
              NumberText.format(mark.value) + (mark.label.map { " (\($0))" } ?? "")
            }.joined(separator: ", ")
          ))
      }
      if !gauge.gradient.isEmpty {
        rows.append(("gradient", gauge.gradient.joined(separator: ", ")))
      }
      if let label = gauge.currentValueLabel { rows.append(("value label", label)) }
      if let label = gauge.minLabel { rows.append(("min label", label)) }
      if let label = gauge.maxLabel { rows.append(("max label", label)) }
    }
    let optional: [(String, String?)] = [
      ("label", content.label), ("subtitle", content.subtitle), ("icon", content.icon),
      (
        "trend",
        content.trend == .unspecified ? nil : content.trend.schemaName
      ),
      ("accent", content.accentColor), ("background", content.backgroundColor),
      ("text colour", content.textColor),
    ]
    rows += optional.compactMap { name, value in value.map { (name, $0) } }
    rows += [
      ("revision", String(widget.revision)), ("created", Timestamp.utc(ms: widget.createdAtMs)),
      ("updated", Timestamp.utc(ms: widget.updatedAtMs)),
    ]
    let width = rows.map { $0.0.count }.max() ?? 0
    return rows.map { DisplayWidth.pad($0.0, to: width) + "  " + $0.1 + "\n" }.joined()
  }

  /// `ls`: one row per widget.
  static func table(_ widgets: [Widget]) -> String {
    var table = Table(header: ["ID", "TEMPLATE", "VALUE", "RANGE", "NAME", "REVISION", "UPDATED"])
    for widget in widgets {
      table.rows.append([
        widget.id, templateName(widget.content), value(widget.content), range(widget.content),
        widget.name, String(widget.revision), Timestamp.utc(ms: widget.updatedAtMs),
      ])
    }
    return table.text
  }
}
