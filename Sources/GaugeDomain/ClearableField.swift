/// An optional field that UpdateWidget's `clear_fields` may clear, by its
/// proto path.
enum ClearableField: String, CaseIterable {
  case name = "name"
  case label = "content.label"
  case subtitle = "content.subtitle"
  case icon = "content.icon"
  case unit = "content.unit"
  case trend = "content.trend"
  case accentColor = "content.accent_color"
  case backgroundColor = "content.background_color"
  case textColor = "content.text_color"
  case gaugeStyle = "content.gauge.style"
  case gaugeGradient = "content.gauge.gradient"
  case gaugeMarks = "content.gauge.marks"
  case gaugeCurrentValueLabel = "content.gauge.current_value_label"
  case gaugeMinLabel = "content.gauge.min_label"
  case gaugeMaxLabel = "content.gauge.max_label"
  case valueMinValue = "content.value.min_value"
  case valueMaxValue = "content.value.max_value"
  case staleAfter = "stale_after_ms"

  /// Known paths that may never be cleared, with the reason.
  static let protectedPaths: [String: String] = [
    "id": "is required",
    "content": "is required",
    "content.gauge": "is the template, which is required",
    "content.progress": "is the template, which is required",
    "content.value": "is the template, which is required",
    "content.gauge.value": "is required",
    "content.gauge.min_value": "is required",
    "content.gauge.max_value": "is required",
    "content.progress.value": "is required",
    "content.value.value": "is required",
    "revision": "is assigned by the server",
    "created_at_ms": "is assigned by the server",
    "updated_at_ms": "is assigned by the server",
    "stale": "is assigned by the server",
  ]

  /// The template this field belongs to, by path name; nil for shared fields.
  var templateName: String? {
    switch self {
    case .gaugeStyle, .gaugeGradient, .gaugeMarks, .gaugeCurrentValueLabel, .gaugeMinLabel,
      .gaugeMaxLabel:
      "gauge"
    case .valueMinValue, .valueMaxValue: "value"
    default: nil
    }
  }

  func isSet(in update: WidgetUpdate) -> Bool {
    let content = update.content
    var gauge: GaugePatch?
    var value: PlainValuePatch?
    switch content?.template {
    case .gauge(let patch): gauge = patch
    case .value(let patch): value = patch
    case .progress, nil: break
    }
    return switch self {
    case .name: update.name != nil
    case .label: content?.label != nil
    case .subtitle: content?.subtitle != nil
    case .icon: content?.icon != nil
    case .unit: content?.unit != nil
    case .trend: content?.trend != nil
    case .accentColor: content?.accentColor != nil
    case .backgroundColor: content?.backgroundColor != nil
    case .textColor: content?.textColor != nil
    case .gaugeStyle: gauge?.style != nil
    case .gaugeGradient: gauge?.gradient != nil
    case .gaugeMarks: gauge?.marks != nil
    case .gaugeCurrentValueLabel: gauge?.currentValueLabel != nil
    case .gaugeMinLabel: gauge?.minLabel != nil
    case .gaugeMaxLabel: gauge?.maxLabel != nil
    case .valueMinValue: value?.minValue != nil
    case .valueMaxValue: value?.maxValue != nil
    case .staleAfter: update.staleAfterMs != nil
    }
  }

  /// Clears the field in `draft`; the caller has checked the template kind.
  func clear(in draft: inout WidgetDraft) {
    switch self {
    case .name: draft.name = nil
    case .staleAfter: draft.staleAfterMs = nil
    case .label: draft.content?.label = nil
    case .subtitle: draft.content?.subtitle = nil
    case .icon: draft.content?.icon = nil
    case .unit: draft.content?.unit = nil
    case .trend: draft.content?.trend = nil
    case .accentColor: draft.content?.accentColor = nil
    case .backgroundColor: draft.content?.backgroundColor = nil
    case .textColor: draft.content?.textColor = nil
    case .gaugeStyle, .gaugeGradient, .gaugeMarks, .gaugeCurrentValueLabel, .gaugeMinLabel,
      .gaugeMaxLabel:
      guard case .gauge(var gauge)? = draft.content?.template else { return }
      clear(in: &gauge)
      draft.content?.template = .gauge(gauge)
    case .valueMinValue, .valueMaxValue:
      guard case .value(var value)? = draft.content?.template else { return }
      if self == .valueMinValue { value.minValue = nil } else { value.maxValue = nil }
      draft.content?.template = .value(value)
    }
  }

  private func clear(in gauge: inout GaugePatch) {
    switch self {
    case .gaugeStyle: gauge.style = nil
    case .gaugeGradient: gauge.gradient = nil
    case .gaugeMarks: gauge.marks = nil
    case .gaugeCurrentValueLabel: gauge.currentValueLabel = nil
    case .gaugeMinLabel: gauge.minLabel = nil
    case .gaugeMaxLabel: gauge.maxLabel = nil
    default: break
    }
  }
}

extension Violations {
  /// Clears each path of `update.clearFields` in `draft` (the merged
  /// result), recording at `clear_fields[i]` why a path cannot be cleared.
  mutating func applyClearFields(of update: WidgetUpdate, to draft: inout WidgetDraft) {
    let templateName = draft.content?.template?.name
    for (index, path) in update.clearFields.enumerated() {
      let field = "clear_fields[\(index)]"
      if let reason = ClearableField.protectedPaths[path] {
        add(field, "\(path) \(reason) and cannot be cleared")
        continue
      }
      guard let clearable = ClearableField(rawValue: path) else {
        add(field, "\(quoted(path)) is not a field path that can be cleared")
        continue
      }
      if let required = clearable.templateName, required != templateName {
        let actual =
          templateName.map { "the widget's template is \($0)" } ?? "the widget has no template"
        add(field, "\(path) cannot be cleared: \(actual)")
        continue
      }
      if clearable.isSet(in: update) {
        add(field, "\(path) is also set in this request")
        continue
      }
      clearable.clear(in: &draft)
    }
  }
}
