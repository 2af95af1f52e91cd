import Testing

@testable import GaugeDomain

@Suite struct WritePreconditionTests {
  let log = ChangeLog()

  func makeStore() -> InMemoryWidgetStore {
    InMemoryWidgetStore(clock: { 1000 }, observer: { [log] in log.record($0) })
  }

  @Test func putWithTheCurrentRevisionReplaces() throws {
    let store = makeStore()
    let first = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    let replaced = try store.put(
      WidgetPut(id: "a", content: gaugeDraft(value: 4)),
      precondition: .revision(first.widget.revision))
    #expect(!replaced.created)
    #expect(replaced.widget.content.template.mainValue == 4)
  }

  @Test func aStaleRevisionChangesNothingAndNamesTheCurrentOne() throws {
    let store = makeStore()
    let first = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    _ = try store.setValue(2, id: "a")
    let current = try store.get(id: "a")
    #expect(
      throws: WidgetError.preconditionFailed(id: "a", currentRevision: current.revision)
    ) {
      try store.update(
        WidgetUpdate(id: "a", name: "late"), precondition: .revision(first.widget.revision))
    }
    #expect(
      throws: WidgetError.preconditionFailed(id: "a", currentRevision: current.revision)
    ) {
      try store.delete(id: "a", precondition: .revision(first.widget.revision))
    }
    #expect(try store.get(id: "a") == current)
    #expect(log.all.count == 2)
  }

  @Test func anAbsentWidgetFailsRevisionAndExists() {
    let store = makeStore()
    #expect(throws: WidgetError.preconditionFailed(id: "a", currentRevision: nil)) {
      try store.put(WidgetPut(id: "a", content: gaugeDraft()), precondition: .revision(1))
    }
    #expect(throws: WidgetError.preconditionFailed(id: "a", currentRevision: nil)) {
      try store.update(WidgetUpdate(id: "a", content: gaugeDraft()), precondition: .exists)
    }
    #expect(throws: WidgetError.preconditionFailed(id: "a", currentRevision: nil)) {
      try store.delete(id: "a", precondition: .exists)
    }
    #expect(store.snapshot().widgets.isEmpty)
    #expect(log.all.isEmpty)
  }

  @Test func absentCreatesOnceThenReportsAlreadyExists() throws {
    let store = makeStore()
    let created = try store.put(WidgetPut(id: "a", content: gaugeDraft()), precondition: .absent)
    #expect(created.created)
    #expect(throws: WidgetError.alreadyExists(id: "a")) {
      try store.put(WidgetPut(id: "a", content: gaugeDraft(value: 1)), precondition: .absent)
    }
    #expect(try store.get(id: "a") == created.widget)
  }

  @Test func updateTellsWhetherItCreated() throws {
    let store = makeStore()
    let created = try store.update(
      WidgetUpdate(id: "a", content: gaugeDraft()), precondition: .none)
    #expect(created.created)
    let updated = try store.update(
      WidgetUpdate(id: "a", name: "n"), precondition: .revision(created.widget.revision))
    #expect(!updated.created)
    #expect(updated.widget.name == "n")
  }

  @Test func anInvalidIDIsReportedAsAViolationNotAPrecondition() {
    let store = makeStore()
    let found = violations { () throws(WidgetError) in
      try store.put(WidgetPut(id: "-bad", content: gaugeDraft()), precondition: .revision(3))
    }
    #expect(found.map(\.field) == ["id"])
  }

  @Test func messagesSayWhatHappened() {
    #expect(
      WidgetError.preconditionFailed(id: "a", currentRevision: 9).message
        == "widget \"a\" has changed: its revision is now 9")
    #expect(
      WidgetError.preconditionFailed(id: "a", currentRevision: nil).message
        == "widget \"a\" does not exist")
    #expect(WidgetError.alreadyExists(id: "a").message == "widget \"a\" already exists")
  }
}
