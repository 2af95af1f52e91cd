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
  static func details(_ widget: Widget, nowMs: Int64) -> String {
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
    if let staleness = staleness(widget, nowMs: nowMs) { rows.append(("staleness", staleness)) }
    let width = rows.map { $0.0.count }.max() ?? 0
    return rows.map { DisplayWidth.pad($0.0, to: width) + "  " + $0.1 + "\n" }.joined()
  }

  /// `ls`: one row per widget. A stale widget's row says so and how long
  /// ago it was updated, and is dimmed where the palette has styles.
  static func table(_ widgets: [Widget], nowMs: Int64, palette: Palette) -> String {
    var table = Table(header: ["ID", "TEMPLATE", "VALUE", "RANGE", "NAME", "REVISION", "UPDATED"])
    for widget in widgets {
      var updated = Timestamp.utc(ms: widget.updatedAtMs)
      if widget.stale {
        updated += " (stale, updated \(RelativeTime.ago(fromMs: widget.updatedAtMs, nowMs: nowMs)))"
      }
      table.rows.append([
        widget.id, templateName(widget.content), value(widget.content), range(widget.content),
        widget.name, String(widget.revision), updated,
      ])
    }
    // Styles go on whole lines once the columns are laid out: escape
    // sequences inside cells would count against their widths.
    let lines = table.text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.enumerated().map { index, line in
      let row = index - 1
      guard widgets.indices.contains(row), widgets[row].stale else { return String(line) }
      return palette.render([Span(String(line), .dimmed)])
    }.joined(separator: "\n")
  }

  /// `get`: how the widget's staleness reads, nil when it has no deadline.
  static func staleness(_ widget: Widget, nowMs: Int64) -> String? {
    guard let staleAfterMs = widget.staleAfterMs else { return nil }
    let after = "after " + RelativeTime.span(ms: staleAfterMs)
    guard widget.stale else { return "fresh (stale \(after) without a write)" }
    return "stale: updated \(RelativeTime.ago(fromMs: widget.updatedAtMs, nowMs: nowMs)) (\(after))"
  }
}
