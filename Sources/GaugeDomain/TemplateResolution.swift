// Each template draft becomes a strict template or records every rule it
// breaks. Checks run in field order so violations come out in field order.

extension Violations {
  mutating func resolveTemplate(_ draft: TemplatePatch, at path: @autoclosure () -> String)
    -> Template?
  {
    switch draft {
    case .gauge(let gauge): resolveGauge(gauge, at: path() + ".gauge").map(Template.gauge)
    case .progress(let progress):
      resolveProgress(progress, at: path() + ".progress").map(Template.progress)
    case .value(let value): resolvePlainValue(value, at: path() + ".value").map(Template.value)
    }
  }

  mutating func resolveGauge(_ draft: GaugePatch, at path: @autoclosure () -> String) -> Gauge? {
    let before = all.count
    // The value's range check needs the bounds before their own checks run,
    // which keep their violations after the value's.
    let bounds = strictBounds(draft.minValue, draft.maxValue)

    let value = requireFinite(draft.value, at: path() + ".value")
    requireWithin(value, bounds, at: path() + ".value")
    let minValue = requireFinite(draft.minValue, at: path() + ".min_value")
    let maxValue = requireFinite(draft.maxValue, at: path() + ".max_value")
    requireLess(minValue, than: maxValue, at: path() + ".min_value", maxName: "max_value")

    let style = resolveEnum(
      GaugeStyle.self, draft.style, default: .automatic, at: path() + ".style")
    let gradient = draft.gradient ?? []
    checkGradient(gradient, at: path() + ".gradient")
    let marks = resolveMarks(draft.marks ?? [], within: bounds, at: path() + ".marks")
    checkText(
      draft.currentValueLabel, maxLength: Limit.gaugeLabel, at: path() + ".current_value_label")
    checkText(draft.minLabel, maxLength: Limit.gaugeLabel, at: path() + ".min_label")
    checkText(draft.maxLabel, maxLength: Limit.gaugeLabel, at: path() + ".max_label")

    guard all.count == before, let value, let minValue, let maxValue, let style else { return nil }
    return Gauge(
      value: value, minValue: minValue, maxValue: maxValue, style: style, gradient: gradient,
      marks: marks, currentValueLabel: draft.currentValueLabel, minLabel: draft.minLabel,
      maxLabel: draft.maxLabel)
  }

  mutating func resolveProgress(_ draft: ProgressPatch, at path: @autoclosure () -> String)
    -> Progress?
  {
    let before = all.count
    let value = requireFinite(draft.value, at: path() + ".value")
    requireWithin(value, 0...1, at: path() + ".value")
    guard all.count == before, let value else { return nil }
    return Progress(value: value)
  }

  mutating func resolvePlainValue(_ draft: PlainValuePatch, at path: @autoclosure () -> String)
    -> PlainValue?
  {
    let before = all.count
    let value = requireFinite(draft.value, at: path() + ".value")
    let minValue = optionalFinite(draft.minValue, at: path() + ".min_value")
    let maxValue = optionalFinite(draft.maxValue, at: path() + ".max_value")
    requireLess(minValue, than: maxValue, at: path() + ".min_value", maxName: "max_value")
    guard all.count == before, let value else { return nil }
    return PlainValue(value: value, minValue: minValue, maxValue: maxValue)
  }

  /// An empty gradient means "none"; one stop is not a gradient.
  private mutating func checkGradient(_ gradient: [String], at path: @autoclosure () -> String) {
    if !gradient.isEmpty, !Limit.gradientStops.contains(gradient.count) {
      let stops = Limit.gradientStops
      let allowed = "\(stops.lowerBound) to \(stops.upperBound)"
      add(path(), "must have \(allowed) colours, got \(gradient.count)")
    }
    for (index, color) in gradient.enumerated() {
      checkColor(color, at: "\(path())[\(index)]")
    }
  }

  private mutating func resolveMarks(
    _ drafts: [MarkPatch], within bounds: ClosedRange<Double>?, at path: @autoclosure () -> String
  ) -> [Mark] {
    if drafts.count > Limit.marks {
      add(path(), "must have at most \(Limit.marks) marks, got \(drafts.count)")
    }
    var marks: [Mark] = []
    marks.reserveCapacity(drafts.count)
    for (index, draft) in drafts.enumerated() {
      // Paths are made only for a rule that fails: valid requests build none.
      let value = requireFinite(draft.value, at: "\(path())[\(index)].value")
      requireWithin(value, bounds, at: "\(path())[\(index)].value")
      checkText(draft.label, maxLength: Limit.markLabel, at: "\(path())[\(index)].label")
      if let value { marks.append(Mark(value: value, label: draft.label)) }
    }
    return marks
  }

  /// Enums arrive as raw proto numbers so an unknown number is reported, not
  /// silently mapped to a default.
  mutating func resolveEnum<Value: RawRepresentable<Int32> & CaseIterable>(
    _ type: Value.Type, _ raw: Int32?, default defaultValue: Value,
    at field: @autoclosure () -> String
  ) -> Value? {
    guard let raw else { return defaultValue }
    guard let value = Value(rawValue: raw) else {
      let known = Value.allCases.map(\.rawValue)
      add(
        field(),
        "\(raw) is not a known \(Value.self) (\(known.min() ?? 0) to \(known.max() ?? 0))")
      return nil
    }
    return value
  }
}
