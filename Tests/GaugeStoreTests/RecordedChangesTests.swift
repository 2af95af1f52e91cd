import GaugeDomain
import Testing

@testable import GaugeStore

@Suite struct RecordedChangesTests {
  private func widget(_ id: String, revision: UInt64) -> Widget {
    Widget(
      id: id, name: id,
      content: Content(
        template: .gauge(Gauge(value: Double(revision), minValue: 0, maxValue: 1e9))),
      revision: revision, createdAtMs: 0, updatedAtMs: Int64(revision))
  }

  @Test func changesFoldIntoTheLatestStatePerWidgetInRecordedOrder() {
    var changes = RecordedChanges()
    changes.append(.upserted(widget("a", revision: 1), created: true), removedAtMs: nil)
    changes.append(.upserted(widget("b", revision: 2), created: true), removedAtMs: nil)
    changes.append(.upserted(widget("a", revision: 3), created: false), removedAtMs: nil)
    changes.append(.removed(id: "b", revision: 4), removedAtMs: 40)
    #expect(changes.unfoldedCount == 4)
    let batch = changes.batch()
    #expect(batch.writes.count == 2)
    #expect(batch.writes["a"] == .upsert(widget("a", revision: 3), clearsTombstone: true))
    #expect(batch.writes["b"] == .remove(Tombstone(id: "b", revision: 4, removedAtMs: 40)))
    #expect(batch.changeCount == 4)
    #expect(batch.lastRevision == 4)
  }

  @Test func theRecorderFoldsPastTheThresholdSoMemoryFollowsWidgetsNotUpdates() {
    var changes = RecordedChanges(foldThreshold: 10)
    for revision in 1...95 {
      changes.append(
        .upserted(widget("hot", revision: UInt64(revision)), created: revision == 1),
        removedAtMs: nil)
      #expect(changes.unfoldedCount < 10)
    }
    #expect(changes.unfoldedCount == 5)
    #expect(changes.folded.writes.count == 1)
    let batch = changes.batch()
    #expect(batch.writes["hot"] == .upsert(widget("hot", revision: 95), clearsTombstone: true))
    #expect(batch.changeCount == 95)
  }

  @Test func valueChangesCountTowardsTheThresholdAndFoldApart() {
    var changes = RecordedChanges(foldThreshold: 4)
    changes.append(.upserted(widget("a", revision: 1), created: true), removedAtMs: nil)
    for revision in 2...6 {
      changes.appendValue(
        ValueChange(
          id: "a", value: Double(revision * 10), revision: UInt64(revision),
          updatedAtMs: Int64(revision)))
    }
    #expect(changes.unfoldedCount == 2)
    let batch = changes.batch()
    #expect(batch.changeCount == 6)
    var expected = widget("a", revision: 6)
    expected.content.template = .gauge(Gauge(value: 60, minValue: 0, maxValue: 1e9))
    #expect(batch.rows().writes == ["a": .upsert(expected, clearsTombstone: true)])
  }

  @Test func repeatedValuesOfOneWidgetAreReplacedAroundItsOtherChanges() {
    func value(_ id: String, _ revision: UInt64) -> ValueChange {
      ValueChange(id: id, value: Double(revision), revision: revision, updatedAtMs: Int64(revision))
    }
    var changes = RecordedChanges()
    changes.appendValue(value("a", 1))
    changes.append(.upserted(widget("a", revision: 2), created: false), removedAtMs: nil)
    changes.appendValue(value("a", 3))
    changes.appendValue(value("b", 4))
    changes.appendValue(value("a", 5))
    changes.appendValue(value("a", 6))
    #expect(changes.unfoldedCount == 4)
    let batch = changes.batch()
    #expect(batch.changeCount == 6)
    #expect(batch.lastRevision == 6)
    let rows = batch.rows()
    #expect(rows.writes == ["a": .upsert(widget("a", revision: 6), clearsTombstone: false)])
    #expect(rows.loggedValues == [value("b", 4)])
  }

  @Test func nothingRecordedIsEmpty() {
    var changes = RecordedChanges()
    #expect(changes.isEmpty)
    changes.append(.removed(id: "x", revision: 1), removedAtMs: 1)
    #expect(!changes.isEmpty)
  }
}
