import GaugeDomain
import GaugeNATS
import NATSTesting
import Synchronization
import Testing

@testable import GaugeNATSStore

/// Two or three stores, each on its own connection, sharing one bucket on a
/// real nats-server: what one writes, the others see with the same revision.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct NATSWidgetStoreTests {
  @Test func aWriteThroughOneIsSeenByAnotherWithTheSameRevision() async throws {
    try await withNATSServer { server in
      let first = try await loadedStore(server)
      let recorder = ChangeRecorder()
      let second = try await loadedStore(server, recorder: recorder)

      let (written, created) = try first.put(gauge("cpu", value: 42))
      #expect(created)
      // The writer's own replica has applied it by the time the write returns.
      #expect(try first.get(id: "cpu") == written)
      try await waitUntil("the second store's copy") { widget("cpu", in: second) == written }
      #expect(recorder.all == [.upserted(written, created: true)])
      #expect(second.snapshot().lastRevision == written.revision)
    }
  }

  @Test func aConflictReadsAgainAndMergesBothPatches() async throws {
    try await withNATSServer { server in
      let other = try await loadedStore(server)
      // A short wait: this store's watch is stopped below, so its own
      // write never comes back to it.
      let lagging = try await loadedStore(server, appliedWaitMs: 50)
      let original = try other.put(gauge("cpu", label: "before")).widget
      try await waitUntil("the lagging store's copy") { widget("cpu", in: lagging) == original }
      lagging.stop()

      let subtitled = try other.update(
        WidgetUpdate(id: "cpu", content: ContentPatch(subtitle: "from the other")))
      // Its replica still holds `original`: the first compare-and-set loses.
      let merged = try lagging.update(
        WidgetUpdate(id: "cpu", content: ContentPatch(label: "from the lagging one")))

      #expect(lagging.conflictCount == 1)
      #expect(merged.revision > subtitled.revision)
      #expect(merged.content.label == "from the lagging one")
      #expect(merged.content.subtitle == "from the other")
      try await waitUntil("the merged widget everywhere") { widget("cpu", in: other) == merged }
    }
  }

  @Test func aWidgetThisReplicaHasNotSeenIsReadFromTheBucket() async throws {
    try await withNATSServer { server in
      let other = try await loadedStore(server)
      // Its watch stopped: it will not see what the other writes.
      let lagging = try await loadedStore(server, appliedWaitMs: 50)
      lagging.stop()
      let created = try other.put(gauge("cpu")).widget

      let valued = try lagging.setValue(9, id: "cpu")
      #expect(valued.revision > created.revision)
      #expect(valued.createdAtMs == created.createdAtMs)
      try lagging.delete(id: "cpu")
      try await waitUntil("the removal") { widget("cpu", in: other) == nil }
    }
  }

  @Test func aDeletionIsSeenAsRemoved() async throws {
    try await withNATSServer { server in
      let first = try await loadedStore(server)
      let recorder = ChangeRecorder()
      let second = try await loadedStore(server, recorder: recorder)
      let written = try first.put(gauge("cpu")).widget
      try await waitUntil("the second store's copy") { widget("cpu", in: second) == written }

      try first.delete(id: "cpu")
      try await waitUntil("the removal") { recorder.all.count == 2 }
      guard case .removed(let id, let revision) = recorder.all.last else {
        Issue.record("not a removal: \(recorder.all)")
        return
      }
      #expect(id == "cpu")
      #expect(revision > written.revision)
      #expect(throws: WidgetError.notFound(id: "cpu")) { try second.get(id: "cpu") }
      #expect(second.snapshot().lastRevision == revision)
    }
  }

  @Test func changesSinceAnswersTheSameOnEveryInstance() async throws {
    try await withNATSServer { server in
      let first = try await loadedStore(server)
      let second = try await loadedStore(server)
      let cpu = try first.put(gauge("cpu")).widget
      let disk = try first.put(gauge("disk")).widget
      try first.delete(id: "cpu")
      let last = first.snapshot().lastRevision
      // Loaded after the writes: the removal is a tombstone from the bucket.
      let third = try await loadedStore(server)

      for store in [first, second, third] {
        try await waitUntil("revision \(last)") { store.snapshot().lastRevision == last }
        guard
          case .changes(let upserts, let removals, let lastRevision) = store.changes(
            since: cpu.revision)
        else {
          Issue.record("no changes since \(cpu.revision)")
          continue
        }
        #expect(upserts == [disk])
        #expect(removals.map(\.id) == ["cpu"])
        #expect(removals.map(\.revision) == [last])
        #expect(lastRevision == last)
        #expect(store.snapshot().widgets == [disk])
      }
    }
  }

  @Test func conditionalWritesCheckTheBucketsLatestRevision() async throws {
    try await withNATSServer { server in
      let first = try await loadedStore(server)
      let second = try await loadedStore(server)
      let written = try first.put(gauge("cpu")).widget

      // The revision a client read through the first instance is good on
      // the second, whether or not its replica has applied it yet.
      let updated = try second.update(
        WidgetUpdate(id: "cpu", content: ContentPatch(label: "new")),
        precondition: .revision(written.revision))
      #expect(updated.widget.content.label == "new")
      #expect(
        throws: WidgetError.preconditionFailed(id: "cpu", currentRevision: updated.widget.revision)
      ) {
        try first.delete(id: "cpu", precondition: .revision(written.revision))
      }
      #expect(throws: WidgetError.alreadyExists(id: "cpu")) {
        try first.put(gauge("cpu"), precondition: .absent)
      }
    }
  }

  @Test func invalidWritesAreRefusedWithTheDomainsViolations() async throws {
    try await withNATSServer { server in
      let store = try await loadedStore(server)
      #expect(throws: WidgetError.self) { try store.put(gauge("cpu", value: 1_000)) }
      #expect(throws: WidgetError.notFound(id: "absent")) { try store.setValue(1, id: "absent") }
      #expect(store.snapshot().widgets.isEmpty)
    }
  }

  @Test func setValuesCoalescesAndRejectsTheUnknownAndTheOutOfBounds() async throws {
    try await withNATSServer { server in
      let store = try await loadedStore(server)
      let recorder = ChangeRecorder()
      let watcher = try await loadedStore(server, recorder: recorder)
      _ = try store.put(gauge("cpu"))
      let rejected = store.setValues([
        ValueSet(id: "cpu", value: 7), ValueSet(id: "absent", value: 1),
        ValueSet(id: "cpu", value: 8), ValueSet(id: "cpu", value: 500),
        ValueSet(id: "cpu", value: 9),
      ])
      #expect(rejected.map(\.offset) == [1, 3])
      #expect(rejected.first?.error == .notFound(id: "absent"))
      // Answered once JetStream stored the last value and the replica has it.
      #expect(await durable(store) == nil)
      #expect(try store.get(id: "cpu").content.mainValue == 9)
      try await waitUntil("the last value on the other store") {
        recorder.all.last?.widget?.content.mainValue == 9
      }
      // Values within one flush interval go out as one put of the latest;
      // what goes out is in order, each a value-only change everywhere.
      let values = recorder.all.dropFirst().map { $0.widget?.content.mainValue }
      #expect(values == values.sorted { ($0 ?? 0) < ($1 ?? 0) })
      #expect(
        recorder.all.dropFirst().allSatisfy { change in
          if case .valueSet = change { return true }
          return false
        })
      _ = watcher
    }
  }

  @Test func aValuePutThatLosesItsRaceGoesOnTopOfTheOtherWrite() async throws {
    try await withNATSServer { server in
      let other = try await loadedStore(server)
      let lagging = try await loadedStore(server, appliedWaitMs: 50)
      let original = try other.put(gauge("cpu", label: "before")).widget
      try await waitUntil("the lagging store's copy") { widget("cpu", in: lagging) == original }
      // Its replica keeps `original`, so its put expects that revision.
      lagging.stopWatching()
      _ = try other.update(WidgetUpdate(id: "cpu", content: ContentPatch(label: "after")))

      #expect(lagging.setValues([ValueSet(id: "cpu", value: 42)]).isEmpty)
      #expect(await durable(lagging) == nil)
      #expect(lagging.conflictCount == 1)
      try await waitUntil("the value on top of the new label") {
        guard let stored = widget("cpu", in: other) else { return false }
        return stored.content.mainValue == 42 && stored.content.label == "after"
      }
    }
  }

  @Test func valuesWaitForEveryWidgetsPut() async throws {
    try await withNATSServer { server in
      let store = try await loadedStore(server)
      let ids = (0..<50).map { "w\($0)" }
      for id in ids { _ = try store.put(gauge(id)) }
      for round in 1...20 {
        let batch = ids.enumerated().map { ValueSet(id: $1, value: Double(round + $0)) }
        #expect(store.setValues(batch).isEmpty)
      }
      #expect(await durable(store) == nil)
      for (index, id) in ids.enumerated() {
        #expect(try store.get(id: id).content.mainValue == Double(20 + index))
      }
    }
  }
}

/// What `whenDurable` answered: nil for success, or the error.
func durable(_ store: NATSWidgetStore) async -> WidgetError? {
  await withCheckedContinuation { continuation in
    store.whenDurable { result in
      switch result {
      case .success: continuation.resume(returning: nil)
      case .failure(let error): continuation.resume(returning: error)
      }
    }
  }
}

/// The retry loop itself, with a competing writer placed between each read
/// and its compare-and-set.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ConflictRetryTests {
  @Test func aWidgetThatKeepsChangingEndsAborted() async throws {
    try await withNATSServer { server in
      let store = try await loadedStore(server)
      let rival = try await openBucket([server.url], KVBucketSettings(name: "gauged"))
      let original = try store.put(gauge("cpu")).widget
      let attempts = AttemptCounter()
      do throws(WidgetError) {
        _ = try store.write(id: "cpu", fromBucket: false) { (table, now) throws(WidgetError) in
          attempts.increment()
          // Another instance's write of the widget, after this one read it.
          var rivalTable = WidgetTable(widgets: [original], lastRevision: original.revision)
          _ = try rivalTable.setValue(Double(attempts.count), id: "cpu", now: now)
          _ = try? rival.put("w.cpu", WidgetValue.encode(try rivalTable.get(id: "cpu")))
          return try table.setValue(50, id: "cpu", now: now)
        }
        Issue.record("a write that always lost was accepted")
      } catch {
        guard case .aborted(let message) = error else {
          Issue.record("not aborted: \(error)")
          return
        }
        #expect(message.contains("kept changing"))
      }
      #expect(attempts.count == NATSWidgetStore.maxWriteAttempts)
      #expect(store.conflictCount == NATSWidgetStore.maxWriteAttempts)
      do throws(WidgetError) {
        _ = try store.write(id: "cpu", fromBucket: false) { (table, now) throws(WidgetError) in
          try table.setValue(50, id: "cpu", now: now)
        }
      } catch {
        Issue.record("an uncontended write failed: \(error)")
      }
    }
  }
}

/// How many times a transition ran.
final class AttemptCounter: Sendable {
  private let attempts = Mutex(0)

  func increment() { attempts.withLock { $0 += 1 } }

  var count: Int { attempts.withLock { $0 } }
}
