import Testing

@testable import GaugeDomain

/// An UpdateWidget that sets only a template's value takes a shortcut
/// (`WidgetTable.onlyValue`); one that sets anything else with it must not.
@Suite struct PatchShapeTests {
  @Test func anyOtherContentFieldWithTheValueIsApplied() throws {
    let others: [(String, ContentPatch)] = [
      ("label", ContentPatch(label: "GPU")),
      ("subtitle", ContentPatch(subtitle: "core 1")),
      ("icon", ContentPatch(icon: "gpu")),
      ("unit", ContentPatch(unit: "C")),
      ("trend", ContentPatch(trend: Trend.down.rawValue)),
      ("accent_color", ContentPatch(accentColor: "red")),
      ("background_color", ContentPatch(backgroundColor: "111111")),
      ("text_color", ContentPatch(textColor: "#000000")),
    ]
    for (field, other) in others {
      var patch = other
      patch.template = .gauge(GaugePatch(value: 4))
      #expect(try updated(with: patch) != valueOnly(), "content.\(field)")
    }
  }

  @Test func anyOtherGaugeFieldWithTheValueIsApplied() throws {
    let others: [(String, GaugePatch)] = [
      ("min_value", GaugePatch(minValue: -1)),
      ("max_value", GaugePatch(maxValue: 6)),
      ("style", GaugePatch(style: GaugeStyle.linear.rawValue)),
      ("gradient", GaugePatch(gradient: ["blue", "cyan"])),
      ("marks", GaugePatch(marks: [MarkPatch(value: 2, label: "cold")])),
      ("current_value_label", GaugePatch(currentValueLabel: "four")),
      ("min_label", GaugePatch(minLabel: "lo")),
      ("max_label", GaugePatch(maxLabel: "hi")),
    ]
    for (field, other) in others {
      var gauge = other
      gauge.value = 4
      #expect(
        try updated(with: ContentPatch(template: .gauge(gauge))) != valueOnly(),
        "content.gauge.\(field)")
    }
  }

  @Test func anyOtherPlainValueFieldWithTheValueIsApplied() throws {
    func update(_ patch: PlainValuePatch) throws -> Widget? {
      var table = WidgetTable()
      _ = try table.put(
        WidgetPut(id: "v", name: "V", content: plainValueDraft(3, min: 0, max: 10)), now: 1000)
      return try table.update(
        WidgetUpdate(id: "v", content: ContentPatch(template: .value(patch))), now: 2000
      ).widget
    }
    let valueOnly = try update(PlainValuePatch(value: 4))
    #expect(try update(PlainValuePatch(value: 4, minValue: 1)) != valueOnly)
    #expect(try update(PlainValuePatch(value: 4, maxValue: 9)) != valueOnly)
  }

  /// `setsOnlyTemplate` and `setsOnlyValue` name every field but the
  /// template (or the value): a new field must be added to them.
  @Test func theShortcutChecksKnowEveryField() {
    #expect(Mirror(reflecting: ContentPatch()).children.count == 9)
    #expect(Mirror(reflecting: GaugePatch()).children.count == 9)
    #expect(Mirror(reflecting: PlainValuePatch()).children.count == 3)
  }

  private func updated(with content: ContentPatch) throws -> Widget? {
    var table = try UpdateTests.fullGauge()
    return try table.update(WidgetUpdate(id: "cpu", content: content), now: 2000).widget
  }

  private func valueOnly() throws -> Widget? {
    try updated(with: ContentPatch(template: .gauge(GaugePatch(value: 4))))
  }
}
