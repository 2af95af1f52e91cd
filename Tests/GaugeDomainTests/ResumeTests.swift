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
