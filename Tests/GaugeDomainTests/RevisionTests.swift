import Testing

@testable import GaugeDomain

@Suite struct RevisionTests {
  @Test func everyAcceptedChangeTakesTheNextRevision() throws {
    var table = WidgetTable()
    #expect(table.lastRevision == 0)
    let a = try table.put(WidgetPut(id: "a", content: gaugeDraft()), now: 1)
    let b = try table.put(WidgetPut(id: "b", content: progressDraft(0)), now: 1)
    let aAgain = try table.update(WidgetUpdate(id: "a"), now: 2)
    let removed = try table.delete(id: "b")
    #expect([a, b, aAgain, removed].map(\.revision) == [1, 2, 3, 4])
    #expect(removed == .removed(id: "b", revision: 4))
    #expect(table.lastRevision == 4)
    #expect(try table.get(id: "a").revision == 3)
  }

  @Test func rejectedRequestsTakeNoRevision() throws {
    var table = try tableOfGauges(["a"])
    let before = table.widgets
    _ = violations { () throws(WidgetError) in try table.put(WidgetPut(id: "a"), now: 9) }
    _ = violations { () throws(WidgetError) in
      try table.update(WidgetUpdate(id: "a", clearFields: ["content.gauge.value"]), now: 9)
    }
    _ = violations { () throws(WidgetError) in try table.delete(id: "") }
    #expect(throws: WidgetError.notFound(id: "zz")) { try table.delete(id: "zz") }
    #expect(table.widgets == before)
    #expect(table.lastRevision == 1)
    #expect(try table.put(WidgetPut(id: "b", content: gaugeDraft()), now: 9).revision == 2)
  }

  @Test func resumingContinuesAfterTheHighestKnownRevision() throws {
    let stored = Widget(
      id: "a", name: "", content: Content(template: .progress(Progress(value: 0))), revision: 40,
      createdAtMs: 1, updatedAtMs: 2)
    var fromCounter = WidgetTable(widgets: [stored], lastRevision: 50)
    #expect(try fromCounter.update(WidgetUpdate(id: "a"), now: 3).revision == 51)
    var fromWidgets = WidgetTable(widgets: [stored], lastRevision: 10)
    #expect(fromWidgets.lastRevision == 40)
    #expect(try fromWidgets.delete(id: "a").revision == 41)
  }

  @Test func resumingKeepsTheNewestCopyOfARepeatedID() throws {
    let old = Widget(
      id: "a", name: "old", content: Content(template: .progress(Progress(value: 0))),
      revision: 5, createdAtMs: 1, updatedAtMs: 1)
    var new = old
    new.name = "new"
    new.revision = 7
    #expect(WidgetTable(widgets: [old, new]).widgets == [new])
    #expect(WidgetTable(widgets: [new, old]).widgets == [new])
  }

  @Test func anExhaustedCounterRefusesInsteadOfWrapping() throws {
    var table = WidgetTable(lastRevision: .max)
    #expect(throws: WidgetError.unavailable("the revision counter is exhausted")) {
      try table.put(WidgetPut(id: "a", content: gaugeDraft()), now: 1)
    }
    #expect(table.count == 0)
  }
}
