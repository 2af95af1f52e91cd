// UpdateWidget merges at the draft level: the stored content is turned back
// into a draft, the request is laid over it, and the result is validated
// exactly like a create. One set of rules then covers both paths, and every
// violation is reported against the merged result.

extension ContentPatch {
  /// The draft that resolves back to `content`.
  public init(_ content: Content) {
    self.init(
      template: TemplatePatch(content.template), label: content.label,
      subtitle: content.subtitle, icon: content.icon, unit: content.unit,
      trend: content.trend == .unspecified ? nil : content.trend.rawValue,
      accentColor: content.accentColor, backgroundColor: content.backgroundColor,
      textColor: content.textColor)
  }

  /// `patch` laid over `self`: present fields overwrite, absent ones are kept.
  func overlaid(with patch: ContentPatch) -> ContentPatch {
    ContentPatch(
      template: TemplatePatch.overlay(template, with: patch.template),
      label: patch.label ?? label, subtitle: patch.subtitle ?? subtitle, icon: patch.icon ?? icon,
      unit: patch.unit ?? unit, trend: patch.trend ?? trend,
      accentColor: patch.accentColor ?? accentColor,
      backgroundColor: patch.backgroundColor ?? backgroundColor,
      textColor: patch.textColor ?? textColor)
  }
}

extension TemplatePatch {
  init(_ template: Template) {
    switch template {
    case .gauge(let gauge):
      self = .gauge(
        GaugePatch(
          value: gauge.value, minValue: gauge.minValue, maxValue: gauge.maxValue,
          style: gauge.style == .automatic ? nil : gauge.style.rawValue,
          gradient: gauge.gradient.isEmpty ? nil : gauge.gradient,
          marks: gauge.marks.isEmpty
            ? nil : gauge.marks.map { MarkPatch(value: $0.value, label: $0.label) },
          currentValueLabel: gauge.currentValueLabel, minLabel: gauge.minLabel,
          maxLabel: gauge.maxLabel))
    case .progress(let progress):
      self = .progress(ProgressPatch(value: progress.value))
    case .value(let value):
      self = .value(
        PlainValuePatch(value: value.value, minValue: value.minValue, maxValue: value.maxValue))
    }
  }

  /// The same kind merges field by field; a different kind replaces the
  /// stored template whole, so its required fields must be in the patch.
  static func overlay(_ base: TemplatePatch?, with patch: TemplatePatch?) -> TemplatePatch? {
    switch (base, patch) {
    case (let base, nil): base
    case (.gauge(let base)?, .gauge(let patch)?): .gauge(base.overlaid(with: patch))
    case (.progress(let base)?, .progress(let patch)?): .progress(base.overlaid(with: patch))
    case (.value(let base)?, .value(let patch)?): .value(base.overlaid(with: patch))
    case (_, let patch): patch
    }
  }

  /// The name used in field paths: `content.<name>.value`.
  var name: String {
    switch self {
    case .gauge: "gauge"
    case .progress: "progress"
    case .value: "value"
    }
  }
}

extension GaugePatch {
  func overlaid(with patch: GaugePatch) -> GaugePatch {
    GaugePatch(
      value: patch.value ?? value, minValue: patch.minValue ?? minValue,
      maxValue: patch.maxValue ?? maxValue, style: patch.style ?? style,
      gradient: patch.gradient ?? gradient, marks: patch.marks ?? marks,
      currentValueLabel: patch.currentValueLabel ?? currentValueLabel,
      minLabel: patch.minLabel ?? minLabel, maxLabel: patch.maxLabel ?? maxLabel)
  }
}

extension ProgressPatch {
  func overlaid(with patch: ProgressPatch) -> ProgressPatch {
    ProgressPatch(value: patch.value ?? value)
  }
}

extension PlainValuePatch {
  func overlaid(with patch: PlainValuePatch) -> PlainValuePatch {
    PlainValuePatch(
      value: patch.value ?? value, minValue: patch.minValue ?? minValue,
      maxValue: patch.maxValue ?? maxValue)
  }
}
