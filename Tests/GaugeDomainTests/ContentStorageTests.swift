import Testing

@testable import GaugeDomain

/// `Content` shares its fields between copies and keeps the template's
/// value apart; copies must still behave as independent values.
@Suite struct ContentStorageTests {
  private let original = Content(
    template: .gauge(Gauge(value: 5, minValue: 0, maxValue: 10, marks: [Mark(value: 2)])),
    label: "CPU", unit: "%", trend: .up, accentColor: "red")

  @Test func changingACopyLeavesTheOriginalAlone() {
    var copy = original
    copy.label = "GPU"
    copy.trend = .down
    copy.templateValue = 7
    #expect(original.label == "CPU")
    #expect(original.trend == .up)
    #expect(
      original.template
        == .gauge(Gauge(value: 5, minValue: 0, maxValue: 10, marks: [Mark(value: 2)])))
    #expect(copy.label == "GPU")
    #expect(
      copy.template == .gauge(Gauge(value: 7, minValue: 0, maxValue: 10, marks: [Mark(value: 2)])))
  }

  @Test func theTemplateReadsBackWithItsLatestValue() {
    var content = original
    content.templateValue = 9
    content.template = .progress(Progress(value: 0.5))
    #expect(content.template == .progress(Progress(value: 0.5)))
    #expect(content.templateValue == 0.5)
    content.templateValue = 0.25
    #expect(content.template == .progress(Progress(value: 0.25)))
  }

  @Test func equalityComparesValuesNotStorage() {
    var sameStorage = original
    sameStorage.templateValue = 6
    #expect(sameStorage != original)
    sameStorage.templateValue = 5
    #expect(sameStorage == original)
    let rebuilt = Content(
      template: .gauge(Gauge(value: 5, minValue: 0, maxValue: 10, marks: [Mark(value: 2)])),
      label: "CPU", unit: "%", trend: .up, accentColor: "red")
    #expect(rebuilt == original)
    var other = rebuilt
    other.accentColor = "blue"
    #expect(other != original)
  }

  @Test func setValueChangesOnlyTheValueRevisionAndTimestamp() throws {
    var table = WidgetTable()
    _ = try table.put(
      WidgetPut(
        id: "w", name: "n",
        content: ContentPatch(
          template: .gauge(GaugePatch(value: 1, minValue: 0, maxValue: 10)), label: "L")),
      now: 1)
    let before = try table.get(id: "w")
    _ = try table.setValue(3, id: "w", now: 2)
    let after = try table.get(id: "w")
    var expected = before
    expected.content.template = .gauge(Gauge(value: 3, minValue: 0, maxValue: 10))
    expected.revision = before.revision + 1
    expected.updatedAtMs = 2
    #expect(after == expected)
    #expect(before.content.template == .gauge(Gauge(value: 1, minValue: 0, maxValue: 10)))
  }

  @Test func aWidgetKeepsItsSlotAndARemovedWidgetsSlotIsReused() throws {
    var table = WidgetTable(widgets: [])
    func put(_ id: String) throws {
      _ = try table.put(
        WidgetPut(
          id: id, name: id,
          content: ContentPatch(template: .value(PlainValuePatch(value: 1)))),
        now: 1)
    }
    func slot(afterSetting id: String) throws -> Int32 {
      _ = try table.setValue(2, id: id, now: 2)
      return table.lastSetValueSlot
    }
    try put("a")
    try put("b")
    let (a, b) = (try slot(afterSetting: "a"), try slot(afterSetting: "b"))
    #expect(a != b)
    try put("a")  // a replacement keeps the slot
    #expect(try slot(afterSetting: "a") == a)
    _ = try table.delete(id: "a")
    try put("c")
    #expect(try slot(afterSetting: "c") == a)
    #expect(try slot(afterSetting: "b") == b)
  }
}
