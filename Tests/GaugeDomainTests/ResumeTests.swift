import Synchronization
import Testing

@testable import GaugeDomain

@Suite struct ResumeTests {
  private func put(_ table: inout WidgetTable, _ id: String, value: Double = 1, now: Int64 = 0)
    throws -> UInt64
  {
    try table.put(WidgetPut(id: id, content: gaugeDraft(value: value)), now: now).revision
  }

  @Test func changesSinceListsLaterUpsertsAndRemovals() throws {
    var table = WidgetTable()
    let a = try put(&table, "a")
    _ = try put(&table, "b")
    let c = try put(&table, "c")
    let removedB = try table.delete(id: "b", now: 10).revision
    let a2 = try put(&table, "a", value: 2)
    guard case .changes(let upserts, let removals, let last) = table.changes(since: a) else {
      Issue.record("expected changes")
      return
    }
    #expect(upserts.map(\.id) == ["a", "c"])
    #expect(upserts.map(\.revision) == [a2, c])
    #expect(removals == [Tombstone(id: "b", revision: removedB, removedAtMs: 10)])
    #expect(last == table.lastRevision)
  }

  @Test func changesSinceTheLatestRevisionIsEmpty() throws {
    var table = WidgetTable()
    _ = try put(&table, "a")
    #expect(
      table.changes(since: table.lastRevision)
        == .changes(upserts: [], removals: [], lastRevision: table.lastRevision))
  }

  @Test func aRevisionFromTheFutureIsUnknown() throws {
    var table = WidgetTable()
    _ = try put(&table, "a")
    #expect(table.changes(since: table.lastRevision + 1) == .unknown)
  }

  @Test func aRevisionBelowTheHorizonIsUnknown() {
    let table = WidgetTable(lastRevision: 500, horizon: 500)
    #expect(table.changes(since: 499) == .unknown)
    #expect(table.changes(since: 500) == .changes(upserts: [], removals: [], lastRevision: 500))
  }

  @Test func recreatingAWidgetDropsItsTombstone() throws {
    var table = WidgetTable()
    let start = try put(&table, "a")
    _ = try table.delete(id: "a", now: 1)
    _ = try put(&table, "a")
    guard case .changes(let upserts, let removals, _) = table.changes(since: start) else {
      Issue.record("expected changes")
      return
    }
    #expect(upserts.map(\.id) == ["a"])
    #expect(removals.isEmpty)
    #expect(table.tombstones.isEmpty)
  }

  @Test func expiringTombstonesRaisesTheHorizon() throws {
    var table = WidgetTable()
    let start = try put(&table, "a")
    _ = try put(&table, "b")
    let oldRemoval = try table.delete(id: "a", now: 100).revision
    let newRemoval = try table.delete(id: "b", now: 200).revision
    #expect(table.expireTombstones(removedBefore: 150) == 1)
    #expect(table.horizon == oldRemoval)
    #expect(table.changes(since: start) == .unknown)
    guard case .changes(_, let removals, _) = table.changes(since: oldRemoval) else {
      Issue.record("expected changes")
      return
    }
    #expect(removals.map(\.revision) == [newRemoval])
  }

  @Test func loadedTombstonesAnswerResumesAndKeepTheCounterAbove() {
    let table = WidgetTable(
      widgets: [], lastRevision: 3, tombstones: [Tombstone(id: "x", revision: 9, removedAtMs: 0)],
      horizon: 2)
    #expect(table.lastRevision == 9)
    #expect(
      table.changes(since: 5)
        == .changes(
          upserts: [], removals: [Tombstone(id: "x", revision: 9, removedAtMs: 0)],
          lastRevision: 9))
  }
}

@Suite struct PersistenceHookTests {
  final class RecordingPersistence: WidgetPersistence, @unchecked Sendable {
    // @unchecked Sendable: the tests call it from one thread.
    var recorded: [(WidgetChange, Int64?)] = []
    var blocker: WidgetError?
    var writeBlocker: WidgetError? { blocker }
    var durableCalls = 0

    var recordedValues: [ValueChange] = []

    func record(_ change: WidgetChange, removedAtMs: Int64?) {
      recorded.append((change, removedAtMs))
    }

    func recordValue(_ change: ValueChange) {
      recordedValues.append(change)
    }

    func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
      durableCalls += 1
      done(blocker.map { .failure($0) } ?? .success(()))
    }
  }

  @Test func everyAcceptedChangeIsRecordedInRevisionOrder() throws {
    let persistence = RecordingPersistence()
    let store = InMemoryWidgetStore(clock: { 42 }, persistence: persistence)
    _ = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    _ = try store.setValue(4, id: "a")
    try store.delete(id: "a")
    #expect(persistence.recorded.map(\.0.revision) == [1, 3])
    #expect(persistence.recorded.map(\.1) == [nil, 42])
    #expect(
      persistence.recordedValues == [ValueChange(id: "a", value: 4, revision: 2, updatedAtMs: 42)])
  }

  /// An UpdateWidget that sets only the stored template's value is logged
  /// as a value, like a published one; any other update is a widget row.
  @Test func valueOnlyUpdatesAreRecordedAsValues() throws {
    let persistence = RecordingPersistence()
    let store = InMemoryWidgetStore(clock: { 42 }, persistence: persistence)
    _ = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    _ = try store.update(
      WidgetUpdate(id: "a", content: ContentPatch(template: .gauge(GaugePatch(value: 1)))))
    _ = try store.update(TemplateValueUpdate(id: "a", kind: .gauge, value: 2))
    _ = try store.update(
      WidgetUpdate(id: "a", content: ContentPatch(template: .gauge(GaugePatch(value: 4)))))
    _ = try store.update(
      WidgetUpdate(
        id: "a", content: ContentPatch(template: .gauge(GaugePatch(value: 4)), label: "L")))
    _ = try store.update(TemplateValueUpdate(id: "a", kind: .progress, value: 0.5))
    #expect(
      persistence.recordedValues == [
        ValueChange(id: "a", value: 1, revision: 2, updatedAtMs: 42),
        ValueChange(id: "a", value: 2, revision: 3, updatedAtMs: 42),
        ValueChange(id: "a", value: 4, revision: 4, updatedAtMs: 42),
      ])
    #expect(persistence.recorded.map(\.0.revision) == [1, 5, 6])
    #expect(try store.get(id: "a").content.template == .progress(Progress(value: 0.5)))
  }

  @Test func rejectedWritesAreNotRecorded() {
    let persistence = RecordingPersistence()
    let store = InMemoryWidgetStore(persistence: persistence)
    _ = violations { () throws(WidgetError) in
      try store.put(WidgetPut(id: "a", content: gaugeDraft(value: 9)))
    }
    #expect(persistence.recorded.isEmpty)
  }

  @Test func aBlockedPersistenceRefusesWritesBeforeApplyingThem() throws {
    let persistence = RecordingPersistence()
    let store = InMemoryWidgetStore(persistence: persistence)
    _ = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    persistence.blocker = .unavailable("disk full")
    #expect(throws: WidgetError.unavailable("disk full")) {
      try store.setValue(4, id: "a")
    }
    #expect(try store.get(id: "a").revision == 1)
    #expect(store.snapshot().lastRevision == 1)
  }

  /// A batch of values: each applied or rejected on its own, in order,
  /// the accepted ones recorded in revision order and observed one by one.
  @Test func aBatchOfValuesIsAppliedItemByItem() throws {
    let (store, persistence, observed) = try storeWithGaugesAAndB()
    let rejections = store.setValues([
      ValueSet(id: "a", value: 1), ValueSet(id: "nope", value: 1), ValueSet(id: "b", value: 9),
      ValueSet(id: "b", value: .nan), ValueSet(id: "b", value: 2), ValueSet(id: "a", value: 4),
    ])
    #expect(rejections.map(\.offset) == [1, 2, 3])
    #expect(rejections[0].error == .notFound(id: "nope"))
    #expect(try store.get(id: "a").content.templateValue == 4)
    #expect(try store.get(id: "b").content.templateValue == 2)
    #expect(
      persistence.recordedValues == [
        ValueChange(id: "a", value: 1, revision: 3, updatedAtMs: 42),
        ValueChange(id: "b", value: 2, revision: 4, updatedAtMs: 42),
        ValueChange(id: "a", value: 4, revision: 5, updatedAtMs: 42),
      ])
    #expect(observed.all == [1, 2, 3, 4, 5])
  }

  /// A run of values for one widget reaches persistence as its last, with
  /// that value's revision and time; every value is still applied and
  /// observed.
  @Test func aRunOfValuesForOneWidgetIsRecordedAsItsLast() throws {
    let (store, persistence, observed) = try storeWithGaugesAAndB()
    let rejections = store.setValues([
      ValueSet(id: "a", value: 1), ValueSet(id: "a", value: 2), ValueSet(id: "a", value: 9),
      ValueSet(id: "a", value: 3), ValueSet(id: "b", value: 4), ValueSet(id: "b", value: 5),
      ValueSet(id: "a", value: 0),
    ])
    #expect(rejections.map(\.offset) == [2])
    #expect(
      persistence.recordedValues == [
        ValueChange(id: "a", value: 3, revision: 5, updatedAtMs: 42),
        ValueChange(id: "b", value: 5, revision: 7, updatedAtMs: 42),
        ValueChange(id: "a", value: 0, revision: 8, updatedAtMs: 42),
      ])
    #expect(observed.all == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(try store.get(id: "a").content.templateValue == 0)
  }

  /// The revisions of the changes a store's observer saw.
  final class ObservedRevisions: Sendable {
    let revisions = Mutex<[UInt64]>([])
    var all: [UInt64] { revisions.withLock { $0 } }
  }

  /// Gauges "a" and "b" (revisions 1 and 2) in a store at time 42, its
  /// persistence recording and every change's revision observed.
  private func storeWithGaugesAAndB() throws -> (
    InMemoryWidgetStore, RecordingPersistence, ObservedRevisions
  ) {
    let persistence = RecordingPersistence()
    let observed = ObservedRevisions()
    let store = InMemoryWidgetStore(
      clock: { 42 }, persistence: persistence,
      observer: { change in observed.revisions.withLock { $0.append(change.revision) } })
    _ = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    _ = try store.put(WidgetPut(id: "b", content: gaugeDraft()))
    return (store, persistence, observed)
  }

  @Test func aBlockedPersistenceRefusesAWholeBatch() throws {
    let persistence = RecordingPersistence()
    let store = InMemoryWidgetStore(persistence: persistence)
    _ = try store.put(WidgetPut(id: "a", content: gaugeDraft()))
    persistence.blocker = .unavailable("disk full")
    let rejections = store.setValues([ValueSet(id: "a", value: 1), ValueSet(id: "a", value: 2)])
    #expect(rejections.map(\.offset) == [0, 1])
    #expect(rejections.allSatisfy { $0.error == .unavailable("disk full") })
    #expect(try store.get(id: "a").revision == 1)
    #expect(persistence.recordedValues.isEmpty)
  }

  @Test func durabilityIsAskedOfThePersistence() {
    let persistence = RecordingPersistence()
    let store = InMemoryWidgetStore(persistence: persistence)
    persistence.blocker = .unavailable("io error")
    let outcome = Mutex<Result<Void, WidgetError>?>(nil)
    store.whenDurable { result in outcome.withLock { $0 = result } }
    #expect(persistence.durableCalls == 1)
    #expect(throws: WidgetError.unavailable("io error")) { try outcome.withLock { $0 }?.get() }
  }

  @Test func storeWithoutPersistenceIsDurableAtOnce() {
    let store = InMemoryWidgetStore()
    let succeeded = Mutex(false)
    store.whenDurable { result in succeeded.withLock { $0 = (try? result.get()) != nil } }
    #expect(succeeded.withLock { $0 })
  }
}
