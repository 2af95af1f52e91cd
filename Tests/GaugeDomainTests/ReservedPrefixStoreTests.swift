import Testing

@testable import GaugeDomain

@Suite struct ReservedPrefixStoreTests {
  let base = InMemoryWidgetStore()
  var guarded: ReservedPrefixStore { ReservedPrefixStore(base, prefix: "gauged-") }

  @Test func everyWriteToThePrefixIsRefusedAndReadsPassThrough() throws {
    _ = try base.put(WidgetPut(id: "gauged-cpu", content: gaugeDraft()))
    let refused = WidgetError.readOnly(id: "gauged-cpu", prefix: "gauged-")
    #expect(throws: refused) { try guarded.put(WidgetPut(id: "gauged-cpu", content: gaugeDraft())) }
    #expect(throws: refused) { try guarded.update(WidgetUpdate(id: "gauged-cpu", name: "x")) }
    #expect(throws: refused) {
      try guarded.update(TemplateValueUpdate(id: "gauged-cpu", kind: .gauge, value: 1))
    }
    #expect(throws: refused) { try guarded.setValue(1, id: "gauged-cpu") }
    #expect(throws: refused) { try guarded.delete(id: "gauged-cpu") }
    #expect(throws: refused) {
      try guarded.delete(id: "gauged-cpu", precondition: .none)
    }
    #expect(try guarded.get(id: "gauged-cpu").revision == 1)
    #expect(guarded.snapshot().widgets.map(\.id) == ["gauged-cpu"])
    #expect(refused.message.contains("read-only"))
  }

  @Test func otherIdsAreWrittenAsUsual() throws {
    #expect(try guarded.put(WidgetPut(id: "gauged", content: gaugeDraft())).created)
    #expect(try guarded.put(WidgetPut(id: "mine", content: gaugeDraft())).created)
  }

  @Test func aBatchRefusesReservedItemsInPlaceAndAppliesTheRest() throws {
    _ = try base.put(WidgetPut(id: "a", content: gaugeDraft()))
    let rejections = guarded.setValues([
      ValueSet(id: "a", value: 1), ValueSet(id: "gauged-x", value: 1),
      ValueSet(id: "absent", value: 1), ValueSet(id: "a", value: 4),
    ])
    #expect(rejections.map(\.offset) == [1, 2])
    #expect(rejections[0].error == .readOnly(id: "gauged-x", prefix: "gauged-"))
    #expect(rejections[1].error == .notFound(id: "absent"))
    #expect(try base.get(id: "a").content.templateValue == 4)
  }
}
