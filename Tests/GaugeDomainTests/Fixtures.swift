import Testing

@testable import GaugeDomain

/// A valid gauge draft (3 within [0, 5]) with optional overrides.
func gaugeDraft(
  value: Double? = 3, minValue: Double? = 0, maxValue: Double? = 5, style: Int32? = nil,
  gradient: [String]? = nil, marks: [MarkPatch]? = nil, currentValueLabel: String? = nil,
  minLabel: String? = nil, maxLabel: String? = nil
) -> ContentPatch {
  ContentPatch(
    template: .gauge(
      GaugePatch(
        value: value, minValue: minValue, maxValue: maxValue, style: style, gradient: gradient,
        marks: marks, currentValueLabel: currentValueLabel, minLabel: minLabel,
        maxLabel: maxLabel)))
}

func progressDraft(_ value: Double?) -> ContentPatch {
  ContentPatch(template: .progress(ProgressPatch(value: value)))
}

func plainValueDraft(_ value: Double?, min: Double? = nil, max: Double? = nil) -> ContentPatch {
  ContentPatch(template: .value(PlainValuePatch(value: value, minValue: min, maxValue: max)))
}

/// The violations of an invalid request; records an issue if it was not
/// rejected as invalid.
func violations<Result>(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(WidgetError) -> Result
) -> [FieldViolation] {
  do {
    let result = try body()
    Issue.record("expected .invalid, got \(result)", sourceLocation: sourceLocation)
  } catch .invalid(let found) {
    return found
  } catch {
    Issue.record("expected .invalid, got \(error)", sourceLocation: sourceLocation)
  }
  return []
}

/// The violations of a content draft, validated on its own.
func contentViolations(_ draft: ContentPatch) -> [FieldViolation] {
  violations { () throws(WidgetError) in try Content(validating: draft) }
}

func violation(_ field: String, _ description: String) -> FieldViolation {
  FieldViolation(field: field, description: description)
}

func fields(_ violations: [FieldViolation]) -> [String] {
  violations.map(\.field)
}

func repeated(_ text: String, _ count: Int) -> String {
  String(repeating: text, count: count)
}

extension WidgetChange {
  var widget: Widget? {
    if case .upserted(let widget, _) = self { return widget }
    return nil
  }

  var created: Bool? {
    if case .upserted(_, let created) = self { return created }
    return nil
  }
}

/// A table holding the given widgets, put in order at time 1000.
func tableOfGauges(_ ids: [String]) throws -> WidgetTable {
  var table = WidgetTable()
  for id in ids {
    _ = try table.put(WidgetPut(id: id, content: gaugeDraft()), now: 1000)
  }
  return table
}
