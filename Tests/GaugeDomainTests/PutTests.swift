import Testing

@testable import GaugeDomain

@Suite struct PutTests {
  @Test func aNewIDIsCreatedWithDefaults() throws {
    var table = WidgetTable()
    let change = try table.put(WidgetPut(id: "cpu", content: gaugeDraft()), now: 1000)
    let expected = Widget(
      id: "cpu", name: "",
      content: Content(template: .gauge(Gauge(value: 3, minValue: 0, maxValue: 5))),
      revision: 1, createdAtMs: 1000, updatedAtMs: 1000)
    #expect(change == .upserted(expected, created: true))
    #expect(try table.get(id: "cpu") == expected)
  }

  @Test func aKnownIDIsReplacedWholeKeepingCreatedAt() throws {
    var table = WidgetTable()
    var first = gaugeDraft()
    first.label = "CPU"
    first.unit = "%"
    _ = try table.put(WidgetPut(id: "cpu", name: "Processor", content: first), now: 1000)

    let change = try table.put(WidgetPut(id: "cpu", content: progressDraft(0.5)), now: 2000)
    let expected = Widget(
      id: "cpu", name: "", content: Content(template: .progress(Progress(value: 0.5))),
      revision: 2, createdAtMs: 1000, updatedAtMs: 2000)
    #expect(change == .upserted(expected, created: false))
    #expect(try table.get(id: "cpu") == expected)
  }

  @Test func nameIsLimitedTo256Characters() throws {
    var table = WidgetTable()
    let fits = repeated("ß", 256)
    #expect(
      try table.put(WidgetPut(id: "a", name: fits, content: gaugeDraft()), now: 1).widget?.name
        == fits)
    let found = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: "a", name: repeated("ß", 257), content: gaugeDraft()), now: 1)
    }
    #expect(found == [violation("name", "must be at most 256 characters, got 257")])
  }

  @Test func contentIsRequired() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in try table.put(WidgetPut(id: "a"), now: 1) }
    #expect(found == [violation("content", "is required")])
  }

  @Test func aTemplateIsRequired() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: "a", content: ContentPatch(unit: "%")), now: 1)
    }
    #expect(found == [violation("content", "a template (gauge, progress or value) is required")])
  }

  @Test func problemsInEveryFieldAreReportedTogether() {
    var table = WidgetTable()
    let found = violations { () throws(WidgetError) in
      try table.put(
        WidgetPut(id: "", name: repeated("n", 300), content: gaugeDraft(value: .nan)), now: 1)
    }
    #expect(
      found == [
        violation("id", "is required"),
        violation("name", "must be at most 256 characters, got 300"),
        violation("content.gauge.value", "must be finite, got NaN"),
      ])
  }

  @Test func aRejectedPutChangesNothing() throws {
    var table = try tableOfGauges(["a"])
    let before = table.widgets
    _ = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: "a", content: gaugeDraft(value: 6)), now: 5000)
    }
    _ = violations { () throws(WidgetError) in
      try table.put(WidgetPut(id: "b", content: gaugeDraft(value: 6)), now: 5000)
    }
    #expect(table.widgets == before)
    #expect(table.lastRevision == 1)
  }
}
