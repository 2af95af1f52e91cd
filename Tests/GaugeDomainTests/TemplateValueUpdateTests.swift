import Testing

@testable import GaugeDomain

/// `update(_: TemplateValueUpdate)` is `update(request.widgetUpdate)` run
/// cheaper: each case runs both on equal tables and compares what they
/// answer and what they leave stored.
@Suite struct TemplateValueUpdateTests {
  private static func table() throws -> WidgetTable {
    var table = try tableOfGauges(["cpu"])
    _ = try table.put(WidgetPut(id: "disk", content: progressDraft(0.5)), now: 1000)
    _ = try table.put(
      WidgetPut(id: "temp", content: plainValueDraft(20, min: 0, max: 50)), now: 1000)
    return table
  }

  private static func outcome(_ run: (inout WidgetTable) throws(WidgetError) -> WidgetChange)
    throws -> (Result<WidgetChange, WidgetError>, [Widget])
  {
    var table = try table()
    let result = Result { () throws(WidgetError) in try run(&table) }
    return (result, table.widgets)
  }

  @Test(arguments: [
    // The stored template, in and out of bounds.
    TemplateValueUpdate(id: "cpu", kind: .gauge, value: 4),
    TemplateValueUpdate(id: "cpu", kind: .gauge, value: 11),
    TemplateValueUpdate(id: "disk", kind: .progress, value: 0.75),
    TemplateValueUpdate(id: "disk", kind: .progress, value: 1.5),
    TemplateValueUpdate(id: "temp", kind: .value, value: 49),
    TemplateValueUpdate(id: "temp", kind: .value, value: .nan),
    // Another template than the stored one.
    TemplateValueUpdate(id: "cpu", kind: .progress, value: 0.5),
    TemplateValueUpdate(id: "disk", kind: .value, value: 3),
    // An unknown id, and no id at all.
    TemplateValueUpdate(id: "fan", kind: .progress, value: 0.5),
    TemplateValueUpdate(id: "", kind: .gauge, value: 1),
  ])
  func answersAsThePatchItStandsFor(_ request: TemplateValueUpdate) throws {
    let cheap = try Self.outcome { (table) throws(WidgetError) in
      try table.update(request, now: 2000)
    }
    let patch = try Self.outcome { (table) throws(WidgetError) in
      try table.update(request.widgetUpdate, now: 2000)
    }
    #expect(cheap.0 == patch.0)
    #expect(cheap.1 == patch.1)
  }

  @Test func theStoreAnswersWithTheUpdatedWidget() throws {
    let store = InMemoryWidgetStore()
    _ = try store.put(WidgetPut(id: "cpu", content: gaugeDraft()))
    let widget = try store.update(TemplateValueUpdate(id: "cpu", kind: .gauge, value: 4))
    #expect(UpdateTests.gauge(of: widget)?.value == 4)
    #expect(try store.get(id: "cpu") == widget)
  }
}
