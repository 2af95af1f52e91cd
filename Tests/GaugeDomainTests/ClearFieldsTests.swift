import Testing

@testable import GaugeDomain

@Suite struct ClearFieldsTests {
  static let sharedPaths = [
    "name", "content.label", "content.subtitle", "content.icon", "content.unit",
    "content.trend", "content.accent_color", "content.background_color", "content.text_color",
  ]
  static let gaugePaths = [
    "content.gauge.style", "content.gauge.gradient", "content.gauge.marks",
    "content.gauge.current_value_label", "content.gauge.min_label", "content.gauge.max_label",
  ]
  static let valuePaths = ["content.value.min_value", "content.value.max_value"]
  /// Fields of the widget itself, beside its name.
  static let widgetPaths = ["stale_after_ms"]

  /// `UpdateTests.fullGauge` plus a value widget "temp" with both bounds and a label.
  static func fullTable() throws -> WidgetTable {
    var table = try UpdateTests.fullGauge()
    var draft = plainValueDraft(21, min: 0, max: 40)
    draft.label = "Temperature"
    _ = try table.put(WidgetPut(id: "temp", content: draft), now: 1000)
    return table
  }

  static func clearing(_ paths: [String], id: String = "cpu") -> WidgetUpdate {
    WidgetUpdate(id: id, clearFields: paths)
  }

  @Test func everyClearablePathIsKnown() {
    #expect(
      Set(ClearableField.allCases.map(\.rawValue))
        == Set(Self.sharedPaths + Self.gaugePaths + Self.valuePaths + Self.widgetPaths))
  }

  @Test func sharedAndGaugeFieldsClearToTheirAbsentValues() throws {
    var table = try Self.fullTable()
    let widget = try #require(
      try table.update(Self.clearing(Self.sharedPaths + Self.gaugePaths), now: 2000).widget)
    #expect(widget.name == "")
    #expect(
      widget.content
        == Content(template: .gauge(Gauge(value: 3, minValue: 0, maxValue: 5))))
  }

  /// What clearing `path` must do to the full gauge, spelled out by hand.
  static func clearByHand(_ path: String, in widget: inout Widget) {
    guard case .gauge(var gauge) = widget.content.template else { return }
    switch path {
    case "name": widget.name = ""
    case "content.label": widget.content.label = nil
    case "content.subtitle": widget.content.subtitle = nil
    case "content.icon": widget.content.icon = nil
    case "content.unit": widget.content.unit = nil
    case "content.trend": widget.content.trend = .unspecified
    case "content.accent_color": widget.content.accentColor = nil
    case "content.background_color": widget.content.backgroundColor = nil
    case "content.text_color": widget.content.textColor = nil
    case "content.gauge.style": gauge.style = .automatic
    case "content.gauge.gradient": gauge.gradient = []
    case "content.gauge.marks": gauge.marks = []
    case "content.gauge.current_value_label": gauge.currentValueLabel = nil
    case "content.gauge.min_label": gauge.minLabel = nil
    case "content.gauge.max_label": gauge.maxLabel = nil
    default: Issue.record("no expectation for \(path)")
    }
    widget.content.template = .gauge(gauge)
  }

  @Test(arguments: sharedPaths + gaugePaths)
  func eachPathClearsOnlyItsField(path: String) throws {
    var table = try Self.fullTable()
    var expected = try table.get(id: "cpu")
    let after = try table.update(Self.clearing([path]), now: 2000).widget
    Self.clearByHand(path, in: &expected)
    expected.revision = 3
    expected.updatedAtMs = 2000
    #expect(after == expected)
  }

  @Test func valueBoundsClear() throws {
    var table = try Self.fullTable()
    let widget = try table.update(Self.clearing(Self.valuePaths, id: "temp"), now: 2000).widget
    #expect(widget?.content.template == .value(PlainValue(value: 21)))
    #expect(widget?.content.label == "Temperature")
  }

  @Test func clearingARequiredFieldIsRejected() throws {
    var table = try Self.fullTable()
    let found = violations { () throws(WidgetError) in
      try table.update(
        Self.clearing(["content.label", "content.gauge.value", "content", "id", "revision"]),
        now: 2000)
    }
    #expect(
      found == [
        violation("clear_fields[1]", "content.gauge.value is required and cannot be cleared"),
        violation("clear_fields[2]", "content is required and cannot be cleared"),
        violation("clear_fields[3]", "id is required and cannot be cleared"),
        violation("clear_fields[4]", "revision is assigned by the server and cannot be cleared"),
      ])
    #expect(try table.get(id: "cpu").content.label == "CPU")
  }

  @Test(arguments: ["content.gauge.min_value", "content.gauge.max_value", "content.gauge"])
  func clearingGaugeBoundsOrTheTemplateIsRejected(path: String) throws {
    var table = try Self.fullTable()
    let found = violations { () throws(WidgetError) in
      try table.update(Self.clearing([path]), now: 2000)
    }
    #expect(fields(found) == ["clear_fields[0]"])
    #expect(found.first?.description.hasSuffix("cannot be cleared") == true)
  }

  @Test(arguments: ["content.colour", "label", "content.gauge.marks[0]", "", "Content.label"])
  func anUnknownPathIsRejected(path: String) throws {
    var table = try Self.fullTable()
    let found = violations { () throws(WidgetError) in
      try table.update(Self.clearing(["content.unit", path]), now: 2000)
    }
    #expect(
      found == [
        violation("clear_fields[1]", "\"\(path)\" is not a field path that can be cleared")
      ])
  }

  @Test func aPathForAnotherTemplateIsRejected() throws {
    var table = try Self.fullTable()
    #expect(
      violations { () throws(WidgetError) in
        try table.update(Self.clearing(["content.value.min_value"]), now: 2000)
      } == [
        violation(
          "clear_fields[0]",
          "content.value.min_value cannot be cleared: the widget's template is gauge")
      ])
    #expect(
      violations { () throws(WidgetError) in
        try table.update(Self.clearing(["content.gauge.marks"], id: "temp"), now: 2000)
      } == [
        violation(
          "clear_fields[0]", "content.gauge.marks cannot be cleared: the widget's template is value"
        )
      ])
  }

  @Test func theTemplateCheckUsesTheMergedResult() throws {
    var table = try Self.fullTable()
    let switched = WidgetUpdate(
      id: "cpu", content: progressDraft(0.5), clearFields: ["content.gauge.gradient"])
    #expect(
      violations { () throws(WidgetError) in try table.update(switched, now: 2000) } == [
        violation(
          "clear_fields[0]",
          "content.gauge.gradient cannot be cleared: the widget's template is progress")
      ])
    let switchedToValue = WidgetUpdate(
      id: "cpu", content: plainValueDraft(1, min: 0), clearFields: ["content.value.max_value"])
    #expect(
      try table.update(switchedToValue, now: 2000).widget?.content.template
        == .value(PlainValue(value: 1, minValue: 0)))
  }

  @Test func aWidgetWithoutTemplateHasNoTemplateFields() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.update(Self.clearing(["content.gauge.style"], id: "new"), now: 1)
    }
    #expect(
      found == [
        violation("content", "is required"),
        violation(
          "clear_fields[0]", "content.gauge.style cannot be cleared: the widget has no template"),
      ])
  }

  @Test func clearingAFieldSetInTheSameRequestIsRejected() throws {
    var table = try Self.fullTable()
    var content = ContentPatch(
      template: .gauge(GaugePatch(marks: [MarkPatch(value: 1)])), label: "x")
    content.trend = 0
    let found = violations { () throws(WidgetError) in
      try table.update(
        WidgetUpdate(
          id: "cpu", name: "n", content: content,
          clearFields: [
            "name", "content.label", "content.trend", "content.gauge.marks", "content.icon",
          ]),
        now: 2000)
    }
    #expect(
      found == [
        violation("clear_fields[0]", "name is also set in this request"),
        violation("clear_fields[1]", "content.label is also set in this request"),
        violation("clear_fields[2]", "content.trend is also set in this request"),
        violation("clear_fields[3]", "content.gauge.marks is also set in this request"),
      ])
    #expect(try table.get(id: "cpu").content.icon == "cpu")
  }

  @Test func clearViolationsFollowContentViolations() throws {
    var table = try Self.fullTable()
    let found = violations { () throws(WidgetError) in
      try table.update(
        WidgetUpdate(
          id: "cpu", content: ContentPatch(unit: repeated("u", 40)), clearFields: ["bogus"]),
        now: 2000)
    }
    #expect(fields(found) == ["content.unit", "clear_fields[0]"])
  }

  @Test func clearingAnAbsentFieldOrTwiceIsHarmless() throws {
    var table = try Self.fullTable()
    _ = try table.update(Self.clearing(["content.subtitle"]), now: 2000)
    let widget = try table.update(
      Self.clearing(["content.subtitle", "content.subtitle"]), now: 3000
    ).widget
    #expect(widget?.content.subtitle == nil)
    #expect(widget?.revision == 4)
  }
}
