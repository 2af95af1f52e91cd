import GaugeDomain
import Testing

@testable import GaugeStore

@Suite struct ValueLogTests {
  @Test func changesRoundTripThroughTheRowFormat() throws {
    let changes = [
      ValueChange(id: "cpu", value: -0.5, revision: 1 << 40, updatedAtMs: -3),
      ValueChange(
        id: "température-é", value: .greatestFiniteMagnitude, revision: 7, updatedAtMs: 9),
      ValueChange(id: String(repeating: "x", count: 300), value: 0, revision: 0, updatedAtMs: 0),
    ]
    let bytes = ValueLog.encode(changes)
    #expect(try bytes.withUnsafeBytes { try ValueLog.decode($0) } == changes)
  }

  @Test func eachChangeTakesFewBytesWhenRevisionsAndTimesAreClose() throws {
    let changes = (0..<100).map {
      ValueChange(
        id: "bench-\($0 + 10_000)", value: Double($0), revision: 1_000_000 + UInt64($0),
        updatedAtMs: 1_790_000_000_000)
    }
    let bytes = ValueLog.encode(changes)
    // 1 (length) + 11 (id) + 8 (value) + 1 + 1 (differences), after the first.
    #expect(bytes.count < 1 + 30 + 99 * 22 + 1)
    #expect(try bytes.withUnsafeBytes { try ValueLog.decode($0) } == changes)
  }

  @Test func rowsOfTheFirstFormatAreStillRead() throws {
    // A log left by an older gauged: UInt16 id length, the id, then the
    // value, revision and update time as 64-bit little-endian integers.
    func littleEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
      (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    var bytes: [UInt8] = []
    for (id, value, revision, time) in [("cpu", 0.25, 7 as UInt64, 9 as Int64), ("é", -1, 8, 10)] {
      bytes += littleEndian(UInt64(id.utf8.count), 2) + Array(id.utf8)
      bytes += littleEndian(value.bitPattern, 8) + littleEndian(revision, 8)
      bytes += littleEndian(UInt64(bitPattern: time), 8)
    }
    #expect(
      try bytes.withUnsafeBytes { try ValueLog.decode($0) } == [
        ValueChange(id: "cpu", value: 0.25, revision: 7, updatedAtMs: 9),
        ValueChange(id: "é", value: -1, revision: 8, updatedAtMs: 10),
      ])
  }

  @Test func aRowCutShortIsRefused() {
    let bytes = ValueLog.encode([ValueChange(id: "a", value: 1, revision: 2, updatedAtMs: 3)])
    for length in [2, 3, 10, bytes.count - 1] {
      #expect(throws: ValueLog.Malformed.self) {
        try Array(bytes.prefix(length)).withUnsafeBytes { try ValueLog.decode($0) }
      }
    }
  }

  @Test func publishedValuesAreLoggedThenFoldedIntoTheRowAtClose() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let opened = try OpenedStore(directory, clock: clock)
    let put = try opened.put("w", 1)
    // Committed on its own, so the values that follow have no row to join.
    #expect((try? await opened.durable().get()) != nil)
    for value in 2...6 { _ = try opened.store.setValue(Double(value), id: "w") }
    #expect((try? await opened.durable().get()) != nil)
    // Strict: committed, as a log row; the widget row is still the put's.
    #expect(try rows("SELECT count(*) FROM value_log", in: directory) != [["0"]])
    #expect(try rows("SELECT revision FROM widgets", in: directory) == [["\(put.revision)"]])
    let statistics = opened.persistence.statistics
    #expect(statistics.valuesLogged >= 1)

    try opened.persistence.close()
    #expect(try rows("SELECT count(*) FROM value_log", in: directory) == [["0"]])
    #expect(try rows("SELECT revision FROM widgets", in: directory) == [["\(put.revision + 5)"]])
    let reopened = try OpenedStore(directory, clock: clock)
    defer { try? reopened.persistence.close() }
    let widget = try reopened.store.get(id: "w")
    #expect(widget.revision == put.revision + 5)
    #expect(widget.content.template == .gauge(Gauge(value: 6, minValue: 0, maxValue: 100)))
  }

  @Test func aSlotPassingToANewWidgetKeepsEachWidgetsLoggedValue() async throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let opened = try OpenedStore(directory, clock: clock)
    try opened.put("a", 1)
    try opened.put("b", 1)
    _ = try opened.store.setValue(11, id: "a")
    _ = try opened.store.setValue(21, id: "b")
    #expect((try? await opened.durable().get()) != nil)
    // "a" goes and "c" takes its slot before the log is folded.
    _ = try opened.store.delete(id: "a")
    try opened.put("c", 1)
    #expect((try? await opened.durable().get()) != nil)
    _ = try opened.store.setValue(31, id: "c")
    _ = try opened.store.setValue(22, id: "b")
    #expect((try? await opened.durable().get()) != nil)
    try opened.persistence.close()

    let reopened = try OpenedStore(directory, clock: clock)
    defer { try? reopened.persistence.close() }
    #expect((try? reopened.store.get(id: "a")) == nil)
    let values = try ["b", "c"].map { try reopened.store.get(id: $0).content.template }
    #expect(
      values == [
        .gauge(Gauge(value: 22, minValue: 0, maxValue: 100)),
        .gauge(Gauge(value: 31, minValue: 0, maxValue: 100)),
      ])
  }

  @Test func aLogLeftByACrashIsReplayedOverTheRowsAndFolded() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let first = try OpenedStore(directory, clock: clock)
    let put = try first.put("w", 1)
    try first.persistence.close()
    // What a killed gauged leaves: log rows not yet folded, in commit order.
    let connection = try SQLiteConnection(path: directory.file(DataDirectory.databaseFileName))
    let log = [
      [ValueChange(id: "w", value: 40, revision: put.revision + 1, updatedAtMs: 5)],
      [
        ValueChange(id: "w", value: 50, revision: put.revision + 2, updatedAtMs: 6),
        // A widget removed since, and a change older than the row: skipped.
        ValueChange(id: "gone", value: 1, revision: put.revision + 3, updatedAtMs: 7),
        ValueChange(id: "w", value: 9, revision: put.revision, updatedAtMs: 1),
      ],
    ]
    for changes in log {
      try connection.prepare("INSERT INTO value_log (changes) VALUES (?1)")
        .run([.blob(ValueLog.encode(changes))])
    }
    connection.close()

    let reopened = try OpenedStore(directory, clock: clock)
    let widget = try reopened.store.get(id: "w")
    #expect(widget.revision == put.revision + 2)
    #expect(widget.updatedAtMs == 6)
    #expect(widget.content.template == .gauge(Gauge(value: 50, minValue: 0, maxValue: 100)))
    #expect(throws: WidgetError.notFound(id: "gone")) { try reopened.store.get(id: "gone") }
    try reopened.persistence.close()
    #expect(try rows("SELECT count(*) FROM value_log", in: directory) == [["0"]])
    #expect(try rows("SELECT revision FROM widgets", in: directory) == [["\(put.revision + 2)"]])
  }
}
