import GaugeDomain
import Testing

@testable import GaugeStore

/// The store against real files: what is written, when, and what a
/// restart reads back.
@Suite struct PersistenceTests {
  @Test func aRestartKeepsWidgetsRevisionsAndTombstones() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let first = try OpenedStore(directory, clock: clock)
    try first.put("a", 1)
    try first.put("b", 2)
    try first.put("c", 3)
    _ = try first.store.update(WidgetUpdate(id: "a", name: "renamed"))
    try first.store.delete(id: "b")
    #expect((try? await first.durable().get()) != nil)
    let before = first.store.snapshot()
    try first.persistence.close()

    let second = try OpenedStore(directory, clock: clock)
    defer { try? second.persistence.close() }
    let loaded = second.persistence.loadedTable
    #expect(loaded.widgets == before.widgets)
    #expect(loaded.lastRevision == before.lastRevision)
    #expect(loaded.lastRevision == 5)
    #expect(loaded.tombstones == [Tombstone(id: "b", revision: 5, removedAtMs: clock.milliseconds)])
    // Resuming across the restart: the removal is reported.
    guard case .changes(let upserts, let removals, _) = second.store.changes(since: 3) else {
      Issue.record("expected changes since 3")
      return
    }
    #expect(upserts.map(\.id) == ["a"])
    #expect(removals.map(\.id) == ["b"])
    // The counter continues.
    #expect(try second.put("d", 4).revision == 6)
  }

  @Test func strictAcknowledgesOnlyWhatAnotherConnectionCanRead() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let opened = try OpenedStore(directory, durability: .strict, clock: ManualClock())
    defer { try? opened.persistence.close() }
    for round in 1...20 {
      let widget = try opened.put("w", Double(round))
      #expect((try? await opened.durable().get()) != nil)
      #expect(
        try rows("SELECT revision FROM widgets WHERE id = 'w'", in: directory)
          == [["\(widget.revision)"]])
    }
  }

  @Test func relaxedAcknowledgesAtOnceAndWritesWithinTheFlushOrAtClose() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    // A flush interval far longer than the test: only close can write.
    let opened = try OpenedStore(
      directory, durability: .relaxed, flushIntervalMs: 60_000, clock: ManualClock())
    try opened.put("w", 1)
    #expect((try? await opened.durable().get()) != nil)
    #expect(try rows("SELECT id FROM widgets", in: directory).isEmpty)
    try opened.persistence.close()
    #expect(try rows("SELECT id FROM widgets", in: directory) == [["w"]])
  }

  /// Relaxed mode's answer is known at once, so unary writes skip the
  /// callback; strict mode's waits for a commit.
  @Test func onlyRelaxedDurabilityIsSettledWithoutWaiting() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let relaxed = try OpenedStore(
      directory, durability: .relaxed, flushIntervalMs: 60_000, clock: ManualClock())
    try relaxed.put("w", 1)
    #expect(try relaxed.store.durabilityIfSettled?.get() != nil)
    try relaxed.persistence.close()

    let strict = try OpenedStore(directory, durability: .strict, clock: ManualClock())
    defer { try? strict.persistence.close() }
    try strict.put("w", 2)
    #expect(strict.store.durabilityIfSettled == nil)
    #expect(InMemoryWidgetStore(table: WidgetTable()).durabilityIfSettled != nil)
  }

  @Test func changesBetweenCommitsAreWrittenOnceEachInOneTransaction() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let opened = try OpenedStore(
      directory, durability: .relaxed, flushIntervalMs: 60_000, clock: clock)
    for round in 0..<1000 {
      try opened.put("hot", Double(round % 100))
    }
    try opened.put("cold", 7)
    try opened.persistence.close()
    let statistics = opened.persistence.statistics
    #expect(statistics.commits == 1)
    #expect(statistics.changesCommitted == 1001)
    #expect(statistics.widgetRowsWritten == 2)

    let reopened = try OpenedStore(directory, clock: clock)
    defer { try? reopened.persistence.close() }
    let hot = try reopened.store.get(id: "hot")
    #expect(hot.revision == 1000)
    #expect(hot.content.template == .gauge(Gauge(value: 99, minValue: 0, maxValue: 100)))
  }

  @Test func expiredTombstonesRaiseTheStoredHorizon() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let first = try OpenedStore(directory, retentionMs: 1000, clock: clock)
    try first.put("a", 1)
    try first.put("b", 2)
    try first.store.delete(id: "a")
    #expect((try? await first.durable().get()) != nil)
    #expect(try rows("SELECT id, revision FROM tombstones", in: directory) == [["a", "3"]])
    clock.advance(milliseconds: 2000)
    // The next commit forgets the old removal on disk, as memory does.
    try first.put("c", 3)
    #expect((try? await first.durable().get()) != nil)
    #expect(try rows("SELECT id FROM tombstones", in: directory).isEmpty)
    #expect(try rows("SELECT value FROM state WHERE key = 'horizon'", in: directory) == [["3"]])
    try first.persistence.close()

    let second = try OpenedStore(directory, retentionMs: 1000, clock: clock)
    defer { try? second.persistence.close() }
    #expect(second.persistence.loadedTable.horizon == 3)
    #expect(second.store.changes(since: 2) == .unknown)
    #expect(second.store.changes(since: 3) != .unknown)
  }

  @Test func tombstonesPastTheRetentionAreForgottenAtLoad() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let first = try OpenedStore(directory, retentionMs: 1000, clock: clock)
    try first.put("a", 1)
    try first.store.delete(id: "a")
    try first.persistence.close()
    clock.advance(milliseconds: 5000)
    let second = try OpenedStore(directory, retentionMs: 1000, clock: clock)
    defer { try? second.persistence.close() }
    #expect(second.persistence.loadedTable.tombstones.isEmpty)
    #expect(second.persistence.loadedTable.horizon == 2)
  }

  @Test func aRecreatedWidgetLosesItsTombstoneOnDisk() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let opened = try OpenedStore(directory, clock: ManualClock())
    defer { try? opened.persistence.close() }
    try opened.put("a", 1)
    try opened.store.delete(id: "a")
    #expect((try? await opened.durable().get()) != nil)
    try opened.put("a", 2)
    #expect((try? await opened.durable().get()) != nil)
    #expect(try rows("SELECT id FROM tombstones", in: directory).isEmpty)
    #expect(try rows("SELECT id, revision FROM widgets", in: directory) == [["a", "3"]])
  }

  @Test func afterAnUncleanStopRevisionsRestartAtTheClockWithAReset() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock(microseconds: 1_800_000_000_000_000)
    let first = try OpenedStore(directory, clock: clock)
    try first.put("a", 1)
    #expect(
      try rows("SELECT value FROM state WHERE key = 'clean_shutdown'", in: directory) == [["0"]])
    try first.persistence.close()
    #expect(
      try rows("SELECT value FROM state WHERE key = 'clean_shutdown'", in: directory) == [["1"]])
    // What a killed gauged leaves behind: the flag of an open file.
    let connection = try SQLiteConnection(path: directory.file(DataDirectory.databaseFileName))
    try connection.execute("UPDATE state SET value = 0 WHERE key = 'clean_shutdown'")
    connection.close()

    let second = try OpenedStore(directory, clock: clock)
    defer { try? second.persistence.close() }
    let restart = UInt64(clock.microseconds)
    #expect(second.persistence.loadedTable.lastRevision == restart)
    #expect(second.store.changes(since: 1) == .unknown)
    #expect(try second.store.get(id: "a").revision == 1)
    #expect(try second.put("b", 2).revision == restart + 1)
  }

  @Test func aClosedStoreRefusesWrites() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let opened = try OpenedStore(directory, clock: ManualClock())
    try opened.put("a", 1)
    try opened.persistence.close()
    #expect(throws: WidgetError.unavailable("the store is closed")) { try opened.put("b", 2) }
    #expect(try opened.store.get(id: "a").id == "a")
  }
}
