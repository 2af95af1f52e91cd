import Testing

@testable import GaugeDomain

@Suite struct GetDeleteTests {
  @Test func deleteRemovesTheWidget() throws {
    var table = try tableOfGauges(["a", "b"])
    #expect(try table.delete(id: "a") == .removed(id: "a", revision: 3))
    #expect(throws: WidgetError.notFound(id: "a")) { try table.get(id: "a") }
    #expect(table.widgets.map(\.id) == ["b"])
    #expect(try table.list(ListQuery()).widgets.map(\.id) == ["b"])
  }

  @Test func unknownIDsAreNotFound() throws {
    var table = try tableOfGauges(["a"])
    #expect(throws: WidgetError.notFound(id: "b")) { try table.get(id: "b") }
    #expect(throws: WidgetError.notFound(id: "b")) { try table.delete(id: "b") }
    #expect(WidgetError.notFound(id: "b").message == "widget \"b\" not found")
  }

  @Test func invalidIDsAreInvalidNotMissing() throws {
    var table = try tableOfGauges(["a"])
    #expect(throws: WidgetError.invalid([violation("id", "is required")])) {
      try table.get(id: "")
    }
    #expect(
      violations { () throws(WidgetError) in try table.delete(id: "a b") }.map(\.field) == ["id"])
  }

  @Test func aDeletedIDCanBeCreatedAgain() throws {
    var table = try tableOfGauges(["a"])
    _ = try table.delete(id: "a")
    let change = try table.put(WidgetPut(id: "a", content: progressDraft(1)), now: 5000)
    #expect(change.created == true)
    #expect(change.widget?.createdAtMs == 5000)
  }
}
