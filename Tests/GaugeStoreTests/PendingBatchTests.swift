import GaugeDomain
import Testing

@testable import GaugeStore

@Suite struct PendingBatchTests {
  private func widget(_ id: String, revision: UInt64, value: Double = 1) -> Widget {
    Widget(
      id: id, name: id,
      content: Content(template: .gauge(Gauge(value: value, minValue: 0, maxValue: 2000))),
      revision: revision, createdAtMs: 0, updatedAtMs: Int64(revision))
  }

  @Test func aWidgetChangedAThousandTimesIsWrittenOnceWithItsLatestValue() {
    var batch = PendingBatch()
    for revision in 1...1000 {
      let hot = widget("hot", revision: UInt64(revision), value: Double(revision))
      batch.add(.upserted(hot, created: revision == 1), removedAtMs: nil)
    }
    #expect(batch.writes.count == 1)
    #expect(
      batch.writes["hot"]
        == .upsert(widget("hot", revision: 1000, value: 1000), clearsTombstone: true))
    #expect(batch.changeCount == 1000)
    #expect(batch.lastRevision == 1000)
  }

  @Test func aRemovalKeepsItsTombstoneAndARecreationClearsIt() {
    var batch = PendingBatch()
    batch.add(.removed(id: "a", revision: 4), removedAtMs: 99)
    #expect(batch.writes["a"] == .remove(Tombstone(id: "a", revision: 4, removedAtMs: 99)))
    batch.add(.upserted(widget("a", revision: 5), created: true), removedAtMs: nil)
    batch.add(.upserted(widget("a", revision: 6), created: false), removedAtMs: nil)
    // The update after the re-creation must still clear the tombstone on disk.
    #expect(batch.writes["a"] == .upsert(widget("a", revision: 6), clearsTombstone: true))
  }

  @Test func anUpdateOfAStoredWidgetLeavesTombstonesAlone() {
    var batch = PendingBatch()
    batch.add(.upserted(widget("a", revision: 7), created: false), removedAtMs: nil)
    #expect(batch.writes["a"] == .upsert(widget("a", revision: 7), clearsTombstone: false))
  }

  @Test func aFailedBatchAbsorbsLaterChangesWhichWin() {
    var failed = PendingBatch()
    failed.add(.upserted(widget("a", revision: 1), created: true), removedAtMs: nil)
    failed.add(.upserted(widget("b", revision: 2), created: true), removedAtMs: nil)
    var later = PendingBatch()
    later.add(.removed(id: "a", revision: 3), removedAtMs: 5)
    later.add(.upserted(widget("c", revision: 4), created: true), removedAtMs: nil)
    failed.absorb(later)
    #expect(failed.writes.count == 3)
    #expect(failed.writes["a"] == .remove(Tombstone(id: "a", revision: 3, removedAtMs: 5)))
    #expect(failed.writes["b"] == .upsert(widget("b", revision: 2), clearsTombstone: true))
    #expect(failed.lastRevision == 4)
    #expect(failed.changeCount == 4)
  }
}

extension PendingBatchTests {
  @Test func repeatedChangesToOneWidgetBetweenOthersStayInTheirOwnRows() {
    var batch = PendingBatch()
    batch.add(.upserted(widget("a", revision: 1), created: false), removedAtMs: nil)
    batch.add(.upserted(widget("a", revision: 2), created: false), removedAtMs: nil)
    batch.add(.upserted(widget("b", revision: 3), created: true), removedAtMs: nil)
    batch.add(.upserted(widget("a", revision: 4), created: false), removedAtMs: nil)
    batch.add(.removed(id: "b", revision: 5), removedAtMs: 9)
    batch.add(.upserted(widget("b", revision: 6), created: true), removedAtMs: nil)
    batch.add(.upserted(widget("b", revision: 7), created: false), removedAtMs: nil)
    #expect(batch.writes.count == 2)
    #expect(batch.writes["a"] == .upsert(widget("a", revision: 4), clearsTombstone: false))
    #expect(batch.writes["b"] == .upsert(widget("b", revision: 7), clearsTombstone: true))
  }
}

extension PendingBatchTests {
  private func value(_ id: String, _ value: Double, revision: UInt64) -> ValueChange {
    ValueChange(id: id, value: value, revision: revision, updatedAtMs: Int64(revision))
  }

  @Test func valueChangesForWidgetsWithNoOtherChangeGoToTheLogLatestFirst() {
    var batch = PendingBatch()
    batch.addValue(value("a", 5, revision: 8))
    batch.addValue(value("a", 6, revision: 9))
    #expect(batch.changeCount == 2)
    #expect(batch.lastRevision == 9)
    let rows = batch.rows()
    #expect(rows.writes.isEmpty)
    #expect(rows.loggedValues == [value("a", 6, revision: 9)])
  }

  @Test func valueChangesOrderWithOtherChangesByRevision() {
    var batch = PendingBatch()
    // Before a replacement: the replacement wins.
    batch.addValue(value("a", 5, revision: 2))
    batch.add(.upserted(widget("a", revision: 3, value: 7), created: false), removedAtMs: nil)
    // After a creation: laid over it, keeping the tombstone clearing.
    batch.add(.upserted(widget("b", revision: 4, value: 1), created: true), removedAtMs: nil)
    batch.addValue(value("b", 9, revision: 5))
    // Before a removal: the removal wins.
    batch.addValue(value("c", 3, revision: 6))
    batch.add(.removed(id: "c", revision: 7), removedAtMs: 70)
    // For a widget with no other change: logged.
    batch.addValue(value("d", 3, revision: 8))
    let rows = batch.rows()
    #expect(rows.loggedValues == [value("d", 3, revision: 8)])
    #expect(
      rows.writes == [
        "a": .upsert(widget("a", revision: 3, value: 7), clearsTombstone: false),
        "b": .upsert(widget("b", revision: 5, value: 9), clearsTombstone: true),
        "c": .remove(Tombstone(id: "c", revision: 7, removedAtMs: 70)),
      ])
  }

  @Test func aCarriedBatchKeepsTheLatestValuePerWidget() {
    var failed = PendingBatch()
    failed.addValue(value("a", 1, revision: 1))
    failed.addValue(value("b", 2, revision: 2))
    var later = PendingBatch()
    later.addValue(value("a", 3, revision: 3))
    failed.absorb(later)
    failed.addValue(value("b", 4, revision: 4))
    // Logged in recorded order; replay and compaction keep the latest.
    let logged = failed.rows().loggedValues
    #expect(logged.map(\.revision) == [1, 2, 3, 4])
    let latest = Dictionary(logged.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    #expect(latest == ["a": value("a", 3, revision: 3), "b": value("b", 4, revision: 4)])
    #expect(failed.changeCount == 4)
  }
}

extension PendingBatchTests {
  @Test func valuesAddedAsARunMatchValuesAddedOneByOne() {
    func value(_ id: String, _ revision: UInt64) -> ValueChange {
      ValueChange(id: id, value: Double(revision), revision: revision, updatedAtMs: 0)
    }
    let first = [value("a", 1), value("b", 2)]
    let second = [value("b", 3), value("c", 4), value("a", 5)]
    var oneByOne = PendingBatch()
    for change in first + second { oneByOne.addValue(change) }
    var asRuns = PendingBatch()
    asRuns.addValues(first)
    asRuns.addValues(second)
    #expect(asRuns.values == oneByOne.values)
    #expect(asRuns.values == [value("a", 1), value("b", 3), value("c", 4), value("a", 5)])
    #expect(asRuns.changeCount == 5)
    #expect(asRuns.lastRevision == 5)
  }

  @Test func theValueBufferComesBackEmptyWithItsCapacity() {
    var batch = PendingBatch()
    var run: [ValueChange] = []
    run.reserveCapacity(1000)
    for revision in 1...10 {
      run.append(
        ValueChange(id: "w\(revision)", value: 0, revision: UInt64(revision), updatedAtMs: 0))
    }
    batch.addValues(run)
    run = []
    let buffer = batch.takeValueBuffer()
    #expect(buffer.isEmpty)
    #expect(buffer.capacity >= 1000)
    #expect(batch.values.isEmpty)
  }

  @Test func pastTheCapValueChangesAreMergedToTheLatestPerWidget() {
    var batch = PendingBatch(maxValueChanges: 4096)
    let widgets = 10
    for revision in 1...(batch.maxValueChanges + 1) {
      batch.addValue(
        ValueChange(
          id: "w\(revision % widgets)", value: Double(revision), revision: UInt64(revision),
          updatedAtMs: 0))
    }
    #expect(batch.values.count <= widgets)
    #expect(batch.values.map(\.revision) == batch.values.map(\.revision).sorted())
    #expect(batch.values.last?.revision == UInt64(batch.maxValueChanges + 1))
    #expect(batch.changeCount == batch.maxValueChanges + 1)
  }
}
