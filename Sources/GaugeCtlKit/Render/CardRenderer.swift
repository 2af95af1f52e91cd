import GaugeDomain

/// One widget as a few screen lines: title and value, the gauge itself,
/// then label, subtitle and the age of the last update. Circular styles
/// draw an arc with the text beside it.
public enum CardRenderer {
  public static func lines(
    for widget: Widget, columns: Int, nowMs: Int64, stale: Bool
  ) -> [ScreenLine] {
    let content = widget.content
    let tint = Tint(
      accent: ColorNames.rgb(content.accentColor) ?? ColorNames.defaultAccent,
      gradient: gradient(of: content), stale: stale)
    let title = titleSpans(widget, tint)
    let value = valueSpans(content, tint)
    let caption = captionSpans(content, tint)
    let age =
      (stale ? "stale · " : "") + "updated "
      + RelativeTime.ago(fromMs: widget.updatedAtMs, nowMs: nowMs)
    let ageSpans = [Span(age, .dimmed)]

    if case .gauge(let gauge) = content.template, isCircular(gauge.style), columns >= 40 {
      let arc = GaugeDrawing.arc(
        fraction: fraction(gauge), capacity: gauge.style != .accessoryCircular,
        center: gauge.currentValueLabel ?? NumberText.format(gauge.value), tint: tint)
      let textColumns = columns - GaugeDrawing.arcWidth - 2
      let rangeText = [
        Span(
          (gauge.minLabel ?? NumberText.format(gauge.minValue)) + " … "
            + (gauge.maxLabel ?? NumberText.format(gauge.maxValue)), tint.normal)
      ]
      let beside: [ScreenLine] = [
        title.truncated(to: textColumns), value.truncated(to: textColumns),
        caption.truncated(to: textColumns), .spread(rangeText, ageSpans, columns: textColumns),
      ]
      return zip(arc, beside).map { arcRow, text in arcRow + [Span("  ")] + text }
    }

    var lines: [ScreenLine] = [.spread(title, value, columns: columns)]
    switch content.template {
    case .gauge(let gauge):
      lines.append(
        GaugeDrawing.linear(
          fraction: fraction(gauge), capacity: isCapacity(gauge.style),
          marks: gauge.marks.map {
            GaugeDrawing.fraction(of: $0.value, from: gauge.minValue, to: gauge.maxValue)
          },
          minLabel: gauge.minLabel ?? NumberText.format(gauge.minValue),
          maxLabel: gauge.maxLabel ?? NumberText.format(gauge.maxValue), columns: columns,
          tint: tint))
    case .progress(let progress):
      lines.append(GaugeDrawing.progress(fraction: progress.value, columns: columns, tint: tint))
    case .value(let plain):
      if let low = plain.minValue, let high = plain.maxValue {
        lines.append(
          GaugeDrawing.range(
            value: plain.value, minValue: low, maxValue: high, columns: columns, tint: tint))
      } else if let low = plain.minValue {
        lines.append([Span("at least \(NumberText.format(low))", .dimmed)])
      } else if let high = plain.maxValue {
        lines.append([Span("at most \(NumberText.format(high))", .dimmed)])
      }
    }
    lines.append(.spread(caption, ageSpans, columns: columns))
    return lines
  }

  static func isCircular(_ style: GaugeStyle) -> Bool {
    style == .accessoryCircular || style == .accessoryCircularCapacity || style == .circular
  }

  /// Whether the gauge fills up to its value (SwiftUI's "capacity" styles,
  /// and the default look) rather than only marking it.
  static func isCapacity(_ style: GaugeStyle) -> Bool {
    style != .linear && style != .accessoryLinear
  }

  private static func fraction(_ gauge: Gauge) -> Double {
    GaugeDrawing.fraction(of: gauge.value, from: gauge.minValue, to: gauge.maxValue)
  }

  private static func gradient(of content: Content) -> [RGB] {
    guard case .gauge(let gauge) = content.template else { return [] }
    return gauge.gradient.compactMap(ColorNames.rgb)
  }

  /// The name (or the id when there is none), then the id, dimmed.
  private static func titleSpans(_ widget: Widget, _ tint: Tint) -> ScreenLine {
    guard !widget.name.isEmpty, widget.name != widget.id else {
      return [Span(widget.id, tint.strong)]
    }
    return [Span(widget.name, tint.strong), Span("  " + widget.id, .dimmed)]
  }

  /// `↑ 42 %`: the trend arrow and the value with its unit.
  private static func valueSpans(_ content: Content, _ tint: Tint) -> ScreenLine {
    let arrow: String? =
      switch content.trend {
      case .up: "↑ "
      case .down: "↓ "
      case .flat: "→ "
      case .unspecified: nil
      }
    let text: String =
      switch content.template {
      case .gauge(let gauge):
        gauge.currentValueLabel ?? NumberText.withUnit(gauge.value, content.unit)
      default: WidgetText.value(content)
      }
    return (arrow.map { [Span($0, tint.normal)] } ?? []) + [Span(text, tint.value)]
  }

  /// `label — subtitle`.
  private static func captionSpans(_ content: Content, _ tint: Tint) -> ScreenLine {
    var spans: ScreenLine = []
    if let label = content.label, !label.isEmpty { spans.append(Span(label, tint.normal)) }
    if let subtitle = content.subtitle, !subtitle.isEmpty {
      spans.append(Span((spans.isEmpty ? "" : " — ") + subtitle, .dimmed))
    }
    return spans
  }
}
