import Testing

@testable import GaugeDomain

@Suite struct UpdateTests {
  /// A gauge with every optional field set, stored at revision 1, time 1000.
  static func fullGauge() throws -> WidgetTable {
    var table = WidgetTable()
    var draft = gaugeDraft(
      value: 3, minValue: 0, maxValue: 5, style: GaugeStyle.circular.rawValue,
      gradient: ["green", "red"], marks: [MarkPatch(value: 4, label: "hot")],
      currentValueLabel: "3", minLabel: "0", maxLabel: "5")
    draft.label = "CPU"
    draft.subtitle = "core 0"
    draft.icon = "cpu"
    draft.unit = "%"
    draft.trend = Trend.up.rawValue
    draft.accentColor = "teal"
    draft.backgroundColor = "000000"
    draft.textColor = "#ffffff"
    _ = try table.put(WidgetPut(id: "cpu", name: "Processor", content: draft), now: 1000)
    return table
  }

  static func gauge(of widget: Widget?) -> Gauge? {
    guard case .gauge(let gauge)? = widget?.content.template else { return nil }
    return gauge
  }

  @Test func onlyPresentFieldsOverwrite() throws {
    var table = try Self.fullGauge()
    let before = try table.get(id: "cpu")
    let change = try table.update(
      WidgetUpdate(id: "cpu", content: ContentPatch(template: .gauge(GaugePatch(value: 4.5)))),
      now: 2000)

    var expected = before
    if case .gauge(var gauge) = expected.content.template {
      gauge.value = 4.5
      expected.content.template = .gauge(gauge)
    }
    expected.revision = 2
    expected.updatedAtMs = 2000
    // Only the value changed: a value change, sent as a delta to those who ask.
    #expect(change == .valueSet(expected))
  }

  @Test func sharedFieldsAndNameMergeIndependently() throws {
    var table = try Self.fullGauge()
    let widget = try table.update(
      WidgetUpdate(id: "cpu", name: "CPU 0", content: ContentPatch(label: "", accentColor: "red")),
      now: 2000
    ).widget
    #expect(widget?.name == "CPU 0")
    #expect(widget?.content.label == "")
    #expect(widget?.content.accentColor == "red")
    #expect(widget?.content.subtitle == "core 0")
    #expect(widget?.content.trend == .up)
    #expect(Self.gauge(of: widget)?.value == 3)
  }

  @Test func repeatedFieldsReplaceWhenPresent() throws {
    var table = try Self.fullGauge()
    let patch = GaugePatch(gradient: ["blue", "mint", "pink"], marks: [MarkPatch(value: 1)])
    let widget = try table.update(
      WidgetUpdate(id: "cpu", content: ContentPatch(template: .gauge(patch))), now: 2000
    ).widget
    #expect(Self.gauge(of: widget)?.gradient == ["blue", "mint", "pink"])
    #expect(Self.gauge(of: widget)?.marks == [Mark(value: 1)])
  }

  @Test func theMergedResultIsValidated() throws {
    var table = try Self.fullGauge()
    let found = violations { () throws(WidgetError) in
      try table.update(
        WidgetUpdate(id: "cpu", content: ContentPatch(template: .gauge(GaugePatch(minValue: 3.5)))),
        now: 2000)
    }
    #expect(
      found == [
        violation("content.gauge.value", "3 is outside [3.5, 5]")
      ])
  }

  @Test func storedMarksOutsideNewBoundsAreReported() throws {
    var table = try Self.fullGauge()
    let found = violations { () throws(WidgetError) in
      try table.update(
        WidgetUpdate(id: "cpu", content: ContentPatch(template: .gauge(GaugePatch(maxValue: 3.5)))),
        now: 2000)
    }
    #expect(found == [violation("content.gauge.marks[0].value", "4 is outside [0, 3.5]")])
  }

  @Test func switchingTemplateBuildsItFromThePatchAlone() throws {
    var table = try Self.fullGauge()
    let widget = try table.update(
      WidgetUpdate(id: "cpu", content: progressDraft(0.25)), now: 2000
    ).widget
    #expect(widget?.content.template == .progress(Progress(value: 0.25)))
    #expect(widget?.content.label == "CPU")
  }

  @Test func switchingTemplateRequiresItsRequiredFields() throws {
    var table = try Self.fullGauge()
    let found = violations { () throws(WidgetError) in
      try table.update(WidgetUpdate(id: "cpu", content: plainValueDraft(nil, min: 1)), now: 2000)
    }
    #expect(found == [violation("content.value.value", "is required")])
    let gaugeFromValue = violations { () throws(WidgetError) in
      _ = try table.update(WidgetUpdate(id: "cpu", content: plainValueDraft(7)), now: 2000)
      return try table.update(
        WidgetUpdate(id: "cpu", content: ContentPatch(template: .gauge(GaugePatch(value: 1)))),
        now: 3000)
    }
    #expect(
      gaugeFromValue == [
        violation("content.gauge.min_value", "is required"),
        violation("content.gauge.max_value", "is required"),
      ])
  }

  @Test func anUnknownIDIsCreatedWhenTheResultIsComplete() throws {
    var table = WidgetTable()
    let change = try table.update(
      WidgetUpdate(id: "new", name: "New", content: progressDraft(1)), now: 7000)
    #expect(
      change
        == .upserted(
          Widget(
            id: "new", name: "New", content: Content(template: .progress(Progress(value: 1))),
            revision: 1, createdAtMs: 7000, updatedAtMs: 7000), created: true))
  }

  @Test func anUnknownIDWithAPartialTemplateIsRejected() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.update(
        WidgetUpdate(id: "new", content: ContentPatch(template: .gauge(GaugePatch(value: 1)))),
        now: 1)
    }
    #expect(fields(found) == ["content.gauge.min_value", "content.gauge.max_value"])
    #expect(table.count == 0)
    #expect(table.lastRevision == 0)
  }

  @Test func anUnknownIDWithoutContentOrTemplateIsRejected() {
    var table = WidgetTable()
    #expect(
      violations { () throws(WidgetError) in
        try table.update(WidgetUpdate(id: "new", name: "x"), now: 1)
      } == [violation("content", "is required")])
    #expect(
      violations { () throws(WidgetError) in
        try table.update(WidgetUpdate(id: "new", content: ContentPatch(unit: "%")), now: 1)
      } == [violation("content", "a template (gauge, progress or value) is required")])
  }

  @Test func anUpdateThatChangesNothingIsAHeartbeat() throws {
    var table = try Self.fullGauge()
    let before = try table.get(id: "cpu")
    let after = try table.update(WidgetUpdate(id: "cpu"), now: 9000).widget
    #expect(after?.content == before.content)
    #expect(after?.name == before.name)
    #expect(after?.revision == 2)
    #expect(after?.createdAtMs == 1000)
    #expect(after?.updatedAtMs == 9000)
    #expect(table.lastRevision == 2)
  }

  @Test func aRejectedUpdateChangesNothing() throws {
    var table = try Self.fullGauge()
    let before = table.widgets
    let found = violations { () throws(WidgetError) in
      try table.update(
        WidgetUpdate(
          id: "cpu", name: "ok", content: ContentPatch(template: .gauge(GaugePatch(value: 50)))),
        now: 2000)
    }
    #expect(found == [violation("content.gauge.value", "50 is outside [0, 5]")])
    #expect(table.widgets == before)
    #expect(table.lastRevision == 1)
  }

  @Test func anInvalidIDIsReported() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.update(WidgetUpdate(id: "no way", content: progressDraft(0)), now: 1)
    }
    #expect(fields(found) == ["id"])
  }
}

@Suite struct SetValueMatchesUpdateTests {
  /// The PublishValues fast path must accept and reject exactly as a full
  /// update of the value would, with the same messages.
  @Test(arguments: [
    (gaugeDraft(), 4.0), (gaugeDraft(), 5.0), (gaugeDraft(), 5.5), (gaugeDraft(), -0.1),
    (gaugeDraft(), .nan), (gaugeDraft(), .infinity), (progressDraft(0.5), 1.0),
    (progressDraft(0.5), 1.01), (progressDraft(0.5), -.infinity),
    (plainValueDraft(1, min: 0, max: 2), 99.0), (plainValueDraft(1), .nan),
  ])
  func sameOutcomeAsUpdate(draft: ContentPatch, value: Double) {
    var fast = WidgetTable()
    _ = try? fast.put(WidgetPut(id: "w", content: draft), now: 1)
    var full = fast
    let template: TemplatePatch =
      switch draft.template! {
      case .gauge: .gauge(GaugePatch(value: value))
      case .progress: .progress(ProgressPatch(value: value))
      case .value: .value(PlainValuePatch(value: value))
      }
    let viaUpdate = Result { () throws(WidgetError) in
      try full.update(WidgetUpdate(id: "w", content: ContentPatch(template: template)), now: 2)
    }
    let viaSetValue = Result { () throws(WidgetError) in try fast.setValue(value, id: "w", now: 2) }
    switch (viaUpdate, viaSetValue) {
    case (.success(let expected), .success(let got)):
      #expect(got == expected)
    case (.failure(let expected), .failure(let got)):
      #expect(got == expected)
    default:
      Issue.record("update gave \(viaUpdate), setValue gave \(viaSetValue)")
    }
    #expect(fast.lastRevision == full.lastRevision)
  }
}

@Suite struct ValueOnlyUpdateTests {
  @Test func aValueOnlyUpdateKeepsEverythingElse() throws {
    var table = WidgetTable()
    _ = try table.put(
      WidgetPut(
        id: "w", name: "n",
        content: gaugeDraft(marks: [MarkPatch(value: 1, label: "one")]).with(label: "L")),
      now: 1)
    let change = try table.update(
      WidgetUpdate(id: "w", content: ContentPatch(template: .gauge(GaugePatch(value: 4)))), now: 2)
    guard case .valueSet(let widget) = change else {
      Issue.record("expected a value change, got \(change)")
      return
    }
    #expect(widget.name == "n")
    #expect(widget.content.label == "L")
    guard case .gauge(let gauge) = widget.content.template else {
      Issue.record("expected a gauge")
      return
    }
    #expect(gauge.value == 4 && gauge.marks == [Mark(value: 1, label: "one")])
    #expect(widget.updatedAtMs == 2 && widget.createdAtMs == 1)
  }
}

extension ContentPatch {
  fileprivate func with(label: String) -> ContentPatch {
    var copy = self
    copy.label = label
    return copy
  }
}
