import Synchronization
import Testing

@testable import GaugeDomain

/// A clock the test sets by hand.
final class ManualClock: Sendable {
  private let now: Mutex<Int64>

  init(_ start: Int64) { now = Mutex(start) }

  func read() -> Int64 { now.withLock { $0 } }

  func set(_ value: Int64) { now.withLock { $0 = value } }
}

@Suite struct StalenessTests {
  let clock = ManualClock(10_000)
  let log = ChangeLog()

  func makeStore(table: WidgetTable = WidgetTable()) -> InMemoryWidgetStore {
    InMemoryWidgetStore(
      table: table, clock: { [clock] in clock.read() }, observer: { [log] in log.record($0) })
  }

  func watched(_ id: String, after staleAfterMs: Int64 = 1000) -> WidgetPut {
    WidgetPut(id: id, content: gaugeDraft(), staleAfterMs: staleAfterMs)
  }

  @Test func aWidgetGoesStaleWhenNoWriteComesInTimeAndTakesARevision() throws {
    let store = makeStore()
    let put = try store.put(watched("cpu")).widget
    clock.set(10_999)
    #expect(store.markStaleWidgets() == 0)
    #expect(try store.get(id: "cpu").stale == false)
    clock.set(11_000)
    #expect(store.markStaleWidgets() == 1)
    let stale = try store.get(id: "cpu")
    #expect(stale.stale)
    #expect(stale.revision == put.revision + 1)
    #expect(stale.updatedAtMs == put.updatedAtMs, "the last write's time is kept")
    #expect(log.all.last == .upserted(stale, created: false))
    clock.set(20_000)
    #expect(store.markStaleWidgets() == 0, "a stale widget is marked once")
  }

  @Test func aWriteClearsStalenessAndRestartsTheDeadline() throws {
    let store = makeStore()
    _ = try store.put(watched("cpu"))
    clock.set(11_000)
    store.markStaleWidgets()
    clock.set(11_500)
    let written = try store.setValue(4, id: "cpu")
    #expect(written.stale == false)
    clock.set(12_499)
    #expect(store.markStaleWidgets() == 0)
    clock.set(12_500)
    #expect(store.markStaleWidgets() == 1)
    // The value-only update path clears it too.
    clock.set(13_000)
    let updated = try store.update(TemplateValueUpdate(id: "cpu", kind: .gauge, value: 2))
    #expect(updated.stale == false)
  }

  @Test func writesMoveTheDeadlineWithoutMarking() throws {
    let store = makeStore()
    _ = try store.put(watched("cpu"))
    for step in 1...5 {
      clock.set(10_000 + Int64(step) * 900)
      _ = try store.setValue(Double(step % 5), id: "cpu")
      #expect(store.markStaleWidgets() == 0)
    }
    clock.set(14_500 + 1000)
    #expect(store.markStaleWidgets() == 1)
  }

  @Test func widgetsWithoutTheFieldAreNeverMarked() throws {
    let store = makeStore()
    _ = try store.put(WidgetPut(id: "plain", content: gaugeDraft()))
    clock.set(10_000 + StaleAfter.maximumMs * 2)
    #expect(store.markStaleWidgets() == 0)
  }

  @Test func updateSetsAndClearsTheField() throws {
    let store = makeStore()
    _ = try store.put(WidgetPut(id: "cpu", content: gaugeDraft()))
    let set = try store.update(WidgetUpdate(id: "cpu", staleAfterMs: 2000))
    #expect(set.staleAfterMs == 2000)
    #expect(set.content.templateValue == 3, "the rest is kept")
    let cleared = try store.update(WidgetUpdate(id: "cpu", clearFields: ["stale_after_ms"]))
    #expect(cleared.staleAfterMs == nil)
    clock.set(20_000)
    #expect(store.markStaleWidgets() == 0, "a cleared field leaves no deadline behind")
  }

  @Test func aShorterDeadlineIsHonoured() throws {
    let store = makeStore()
    _ = try store.put(watched("cpu", after: 60_000))
    _ = try store.update(WidgetUpdate(id: "cpu", staleAfterMs: 1000))
    clock.set(11_000)
    #expect(store.markStaleWidgets() == 1)
  }

  @Test func removedWidgetsAreNotMarked() throws {
    let store = makeStore()
    _ = try store.put(watched("cpu"))
    try store.delete(id: "cpu")
    clock.set(11_000)
    #expect(store.markStaleWidgets() == 0)
  }

  @Test func boundsAreRefusedNamingTheField() {
    let store = makeStore()
    for bad: Int64 in [0, 999, StaleAfter.maximumMs + 1, -5] {
      let found = violations { () throws(WidgetError) in try store.put(watched("cpu", after: bad)) }
      #expect(fields(found) == ["stale_after_ms"])
      #expect(found.first?.description.contains("between 1000") == true)
    }
    let onUpdate = violations { () throws(WidgetError) in
      try store.update(WidgetUpdate(id: "cpu", content: gaugeDraft(), staleAfterMs: 500))
    }
    #expect(fields(onUpdate) == ["stale_after_ms"])
    #expect(throws: Never.self) { try store.put(watched("a", after: StaleAfter.minimumMs)) }
    #expect(throws: Never.self) { try store.put(watched("b", after: StaleAfter.maximumMs)) }
  }

  @Test func staleIsClearedOnlyByTheServer() {
    let store = makeStore()
    let found = violations { () throws(WidgetError) in
      try store.update(WidgetUpdate(id: "cpu", content: gaugeDraft(), clearFields: ["stale"]))
    }
    #expect(found.first?.description == "stale is assigned by the server and cannot be cleared")
  }

  @Test func aWidgetThatRanOutWhileStoppedIsDueAtStart() throws {
    let earlier = Widget(
      id: "cpu", name: "", content: try Content(validating: gaugeDraft()), revision: 7,
      createdAtMs: 1000, updatedAtMs: 2000, staleAfterMs: 1000)
    let store = makeStore(table: WidgetTable(widgets: [earlier], lastRevision: 7))
    #expect(store.markStaleWidgets() == 1)
    let widget = try store.get(id: "cpu")
    #expect(widget.stale && widget.revision == 8)
  }

  @Test func entriesOfRemovedWidgetsAreDroppedOnceTheyPileUp() throws {
    var table = WidgetTable()
    for index in 0..<3000 {
      _ = try table.put(watched("gone\(index)", after: StaleAfter.maximumMs), now: 0)
      _ = try table.delete(id: "gone\(index)", now: 0)
    }
    _ = try table.put(watched("kept"), now: 0)
    #expect(table.staleCheckCount <= 2 * table.count + 1024)
    #expect(table.markStale(now: 1000).map(\.widgetID) == ["kept"])
    #expect(table.markStale(now: StaleAfter.maximumMs).isEmpty)
  }

  @Test func manyDueAtOnceAreMarkedInChunksByOneCall() throws {
    let store = makeStore()
    let count = InMemoryWidgetStore.staleChunk * 2 + 10
    for index in 0..<count { _ = try store.put(watched("w\(index)")) }
    clock.set(20_000)
    #expect(store.markStaleWidgets() == count)
    #expect(store.snapshot().widgets.allSatisfy { $0.stale })
    var table = WidgetTable()
    for index in 0..<10 { _ = try table.put(watched("t\(index)"), now: 0) }
    #expect(table.markStale(now: 1000, limit: 4).count == 4)
    #expect(table.isStaleCheckDue(at: 1000))
    #expect(table.markStale(now: 1000).count == 6)
    #expect(!table.isStaleCheckDue(at: 1000))
  }

  @Test func manyDeadlinesComeDueInOrder() throws {
    var table = WidgetTable()
    for index in 0..<1000 {
      _ = try table.put(watched("w\(index)", after: 1000 + Int64(index % 10) * 1000), now: 0)
    }
    var marked: [WidgetChange] = []
    for second in 1...10 {
      let now = Int64(second) * 1000
      let due = table.markStale(now: now)
      #expect(due.count == 100)
      for change in due {
        guard case .upserted(let widget, _) = change else { continue }
        #expect(widget.staleAfterMs == now)
      }
      marked += due
    }
    #expect(marked.map(\.revision) == Array(1001...2000).map(UInt64.init))
    #expect(table.earliestStaleCheckMs == nil)
  }
}
