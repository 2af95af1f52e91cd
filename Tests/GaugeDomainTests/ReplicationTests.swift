import Testing

@testable import GaugeDomain

/// A table fed changes numbered by a shared store: revisions are taken as
/// given, removals of unknown ids still leave tombstones.
@Suite struct ReplicationTests {
  private func widget(_ id: String, revision: UInt64) -> Widget {
    Widget(
      id: id, name: id, content: Content(template: .progress(Progress(value: 0.5))),
      revision: revision, createdAtMs: 1, updatedAtMs: 1)
  }

  @Test func replicatedWidgetsKeepTheirRevisions() {
    var table = WidgetTable()
    #expect(
      table.replicate(widget("a", revision: 5))
        == .upserted(widget("a", revision: 5), created: true))
    var renamed = widget("a", revision: 9)
    renamed.name = "A"
    #expect(table.replicate(renamed) == .upserted(renamed, created: false))
    #expect(table.lastRevision == 9)
    #expect(table.widgets == [renamed])
  }

  @Test func anotherWritersValueOnlyChangeIsAValueChangeHereToo() {
    var table = WidgetTable()
    var stale = widget("a", revision: 3)
    stale.staleAfterMs = 60_000
    stale.stale = true
    _ = table.replicate(stale)
    // A new value clears staleness, as it does where it was written.
    var valued = stale
    valued.content.template = .progress(Progress(value: 0.75))
    valued.stale = false
    valued.revision = 4
    valued.updatedAtMs = 2
    #expect(table.replicate(valued) == .valueSet(valued))
    // Marked stale again: more than a value.
    var marked = valued
    marked.stale = true
    marked.revision = 5
    #expect(table.replicate(marked) == .upserted(marked, created: false))
  }

  @Test func removalsLeaveTombstonesEvenForUnknownIDs() {
    var table = WidgetTable()
    _ = table.replicate(widget("a", revision: 3))
    #expect(table.replicateRemoval(id: "a", revision: 4, now: 10) == .removed(id: "a", revision: 4))
    #expect(table.replicateRemoval(id: "b", revision: 6, now: 10) == nil)
    table.skip(to: 8)
    #expect(
      table.changes(since: 3)
        == .changes(
          upserts: [],
          removals: [
            Tombstone(id: "a", revision: 4, removedAtMs: 10),
            Tombstone(id: "b", revision: 6, removedAtMs: 10),
          ], lastRevision: 8))
  }

  @Test func resumesFromBelowARaisedHorizonAreUnknown() {
    var table = WidgetTable()
    _ = table.replicate(widget("a", revision: 12))
    table.raiseHorizon(to: 10)
    #expect(table.changes(since: 9) == .unknown)
    #expect(
      table.changes(since: 10)
        == .changes(upserts: [widget("a", revision: 12)], removals: [], lastRevision: 12))
  }
}
