import Synchronization
import Testing

@testable import GaugeDomain

/// A clock that advances by one millisecond per reading.
final class SteppingClock: Sendable {
  private let now: Mutex<Int64>

  init(start: Int64) { now = Mutex(start) }

  func read() -> Int64 {
    now.withLock { now in
      defer { now += 1 }
      return now
    }
  }
}

/// Records every change the store reports.
final class ChangeLog: Sendable {
  private let changes = Mutex<[WidgetChange]>([])

  var all: [WidgetChange] { changes.withLock { $0 } }

  func record(_ change: WidgetChange) {
    changes.withLock { $0.append(change) }
  }
}

@Suite struct InMemoryWidgetStoreTests {
  let log = ChangeLog()
  let clock = SteppingClock(start: 1000)

  func makeStore() -> InMemoryWidgetStore {
    InMemoryWidgetStore(
      clock: { [clock] in clock.read() }, observer: { [log] in log.record($0) })
  }

  @Test func operationsGoThroughTheTableWithTheClock() throws {
    let store = makeStore()
    let created = try store.put(WidgetPut(id: "cpu", content: gaugeDraft()))
    #expect(created.created)
    #expect(created.widget.createdAtMs == 1000)
    #expect(try store.put(WidgetPut(id: "cpu", content: gaugeDraft())).created == false)
    let updated = try store.update(
      WidgetUpdate(id: "cpu", content: ContentPatch(template: .gauge(GaugePatch(value: 1)))))
    #expect(updated.revision == 3)
    #expect(updated.createdAtMs == 1000)
    #expect(updated.updatedAtMs == 1002)
    #expect(try store.get(id: "cpu") == updated)
    #expect(try store.list(ListQuery()).widgets == [updated])
    try store.delete(id: "cpu")
    #expect(try store.list(ListQuery()).widgets.isEmpty)
  }

  @Test func unknownAndInvalidIDsAreDistinguished() {
    let store = makeStore()
    #expect(throws: WidgetError.notFound(id: "nope")) { try store.get(id: "nope") }
    #expect(throws: WidgetError.notFound(id: "nope")) { try store.delete(id: "nope") }
    #expect(throws: WidgetError.invalid([violation("id", "is required")])) {
      try store.get(id: "")
    }
    #expect(
      violations { () throws(WidgetError) in try store.delete(id: "#1") }.map(\.field) == ["id"])
  }

  @Test func theObserverSeesAcceptedChangesOnlyInOrder() throws {
    let store = makeStore()
    let widget = try store.put(WidgetPut(id: "a", content: progressDraft(0.1))).widget
    _ = violations { () throws(WidgetError) in try store.put(WidgetPut(id: "a")) }
    let updated = try store.update(WidgetUpdate(id: "a"))
    try store.delete(id: "a")
    #expect(
      log.all == [
        .upserted(widget, created: true), .upserted(updated, created: false),
        .removed(id: "a", revision: 3),
      ])
  }

  @Test func concurrentWritersAreObservedInRevisionOrder() async throws {
    let store = makeStore()
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for step in 0..<250 {
            _ = try? store.put(
              WidgetPut(id: "w\(writer)-\(step % 10)", content: progressDraft(0.5)))
          }
        }
      }
    }
    let revisions = log.all.map(\.revision)
    #expect(revisions == Array(1...1000))
    #expect(store.snapshot().lastRevision == 1000)
    #expect(store.snapshot().widgets.count == 40)
  }

  @Test func snapshotIsOrderedAndResumable() throws {
    let store = makeStore()
    for id in ["c", "a", "b"] {
      _ = try store.put(WidgetPut(id: id, content: gaugeDraft()))
    }
    try store.delete(id: "c")
    let snapshot = store.snapshot()
    #expect(snapshot.widgets.map(\.id) == ["a", "b"])
    #expect(snapshot.lastRevision == 4)

    let resumed = InMemoryWidgetStore(
      widgets: snapshot.widgets, lastRevision: snapshot.lastRevision, clock: { 5000 })
    #expect(try resumed.get(id: "b") == snapshot.widgets[1])
    #expect(try resumed.update(WidgetUpdate(id: "a")).revision == 5)
  }

  @Test func setValueSetsTheMainValueOfAnyTemplate() throws {
    let store = makeStore()
    _ = try store.put(WidgetPut(id: "g", content: gaugeDraft()))
    _ = try store.put(WidgetPut(id: "p", content: progressDraft(0)))
    _ = try store.put(WidgetPut(id: "v", content: plainValueDraft(1, min: 0, max: 2)))
    #expect(
      try store.setValue(4, id: "g").content.template
        == .gauge(Gauge(value: 4, minValue: 0, maxValue: 5)))
    #expect(try store.setValue(0.75, id: "p").content.template == .progress(Progress(value: 0.75)))
    #expect(
      try store.setValue(99, id: "v").content.template
        == .value(PlainValue(value: 99, minValue: 0, maxValue: 2)))
    #expect(log.all.map(\.revision) == [1, 2, 3, 4, 5, 6])
  }

  /// With a batch observer, `setValues` reports its accepted changes in one
  /// call, in order; other writes still go to the per-change observer.
  @Test func aBatchObserverGetsEachBatchsAcceptedChangesInOneCall() throws {
    let batches = Mutex<[[WidgetChange]]>([])
    let store = InMemoryWidgetStore(
      clock: { [clock] in clock.read() }, observer: { [log] in log.record($0) },
      batchObserver: { batch in batches.withLock { $0.append(batch) } })
    _ = try store.put(WidgetPut(id: "p", content: progressDraft(0)))
    let rejections = store.setValues([
      ValueSet(id: "p", value: 0.5), ValueSet(id: "p", value: 2), ValueSet(id: "q", value: 0),
      ValueSet(id: "p", value: 0.25),
    ])
    #expect(rejections.map(\.offset) == [1, 2])
    #expect(log.all.map(\.revision) == [1])
    #expect(batches.withLock { $0.map { $0.map(\.revision) } } == [[2, 3]])
    #expect(batches.withLock { $0[0].map(\.widgetID) } == ["p", "p"])
    #expect(store.setValues([ValueSet(id: "q", value: 0)]).count == 1)
    #expect(batches.withLock { $0.count } == 1)
  }

  @Test func setValueRejectsBadValuesAndUnknownIDs() throws {
    let store = makeStore()
    _ = try store.put(WidgetPut(id: "p", content: progressDraft(0)))
    #expect(
      throws: WidgetError.invalid([violation("content.progress.value", "2 is outside [0, 1]")])
    ) {
      try store.setValue(2, id: "p")
    }
    #expect(
      throws: WidgetError.invalid([violation("content.progress.value", "must be finite, got NaN")])
    ) {
      try store.setValue(.nan, id: "p")
    }
    #expect(throws: WidgetError.notFound(id: "q")) { try store.setValue(0, id: "q") }
    #expect(store.snapshot().lastRevision == 1)
  }

  @Test func theDefaultClockIsTheWallClock() throws {
    let store = InMemoryWidgetStore()
    let before = WallClock.unixMilliseconds()
    let widget = try store.put(WidgetPut(id: "a", content: gaugeDraft())).widget
    let after = WallClock.unixMilliseconds()
    #expect(before > 1_700_000_000_000)  // after November 2023
    #expect((before...after).contains(widget.createdAtMs))
  }
}
