import GaugeDomain
import Synchronization

@testable import GaugeStore

/// A clock the test moves by hand, in Unix microseconds.
final class ManualClock: Sendable {
  private let now: Mutex<Int64>

  init(microseconds: Int64 = 1_700_000_000_000_000) {
    now = Mutex(microseconds)
  }

  var microseconds: Int64 { now.withLock { $0 } }
  var milliseconds: Int64 { microseconds / 1000 }

  func advance(milliseconds: Int64) {
    now.withLock { $0 += milliseconds * 1000 }
  }
}

func gaugeContent(_ value: Double) -> ContentPatch {
  ContentPatch(template: .gauge(GaugePatch(value: value, minValue: 0, maxValue: 100)))
}

/// A store on `directory` with the memory table it loaded, as gauged wires it.
struct OpenedStore {
  let persistence: SQLiteWidgetPersistence
  let store: InMemoryWidgetStore

  init(
    _ directory: TemporaryDirectory, durability: Durability = .strict,
    flushIntervalMs: Int = 1, retentionMs: Int64 = 24 * 3_600_000, clock: ManualClock
  ) throws {
    persistence = try SQLiteWidgetPersistence(
      directory: directory.path,
      options: StoreOptions(
        durability: durability, flushIntervalMs: flushIntervalMs,
        tombstoneRetentionMs: retentionMs, clock: { clock.microseconds }))
    store = InMemoryWidgetStore(
      table: persistence.loadedTable, clock: { clock.milliseconds }, persistence: persistence,
      tombstoneRetentionMs: retentionMs)
  }

  @discardableResult
  func put(_ id: String, _ value: Double) throws -> Widget {
    try store.put(WidgetPut(id: id, name: id, content: gaugeContent(value))).widget
  }

  func durable() async -> Result<Void, WidgetError> {
    await withCheckedContinuation { continuation in
      store.whenDurable { continuation.resume(returning: $0) }
    }
  }
}

/// Reads the file through a connection of its own, as another process would.
func rows(_ sql: String, in directory: TemporaryDirectory) throws -> [[String]] {
  let connection = try SQLiteConnection(
    path: directory.file(DataDirectory.databaseFileName), create: false)
  let statement = try connection.prepare(sql)
  var rows: [[String]] = []
  while try statement.step() {
    rows.append((0..<statement.columnCount).map { statement.text($0) })
  }
  return rows
}
