import GaugeDomain
import GaugeIO
import GaugeStore
import Glibc
import Synchronization

/// Runs an input as a sequence of writes (puts, merges, value batches,
/// deletes) against the SQLite-backed store and, side by side, against a
/// store that only lives in memory; some steps close the SQLite store and
/// open it again, as a restart would. The two must agree on every answer,
/// and what the file gives back after each restart must be exactly what
/// the memory store holds: no write lost, none half-applied, none invented.
/// Some restarts are crashes instead: the store reopens a copy of its
/// files. In strict mode the copy is taken once every write so far is
/// acknowledged, and must hold them all; in relaxed mode it is taken while
/// the writer may still be committing, and must hold the state after some
/// prefix of the writes (`RelaxedCrashHistory`).
public enum StoreHarness {
  /// Unix microseconds for both stores, so that timestamps agree.
  static let now: Int64 = 1_764_000_000_000_000

  public static func run(_ data: [UInt8]) throws(FuzzFinding) {
    var input = FuzzInput(data)
    let flags = input.byte() ?? 0
    let options = StoreOptions(
      durability: flags & 0x01 == 0 ? .strict : .relaxed, flushIntervalMs: 1,
      clock: { now })
    let first = try TemporaryDirectory()
    var disk: DiskStore
    do {
      disk = try DiskStore(directory: first.path, options: options)
    } catch {
      first.remove()
      throw error
    }
    // After a crash the store lives in a copy: whichever folder it ends in
    // goes, and a store left open by a finding is closed first.
    defer {
      try? disk.close()
      TemporaryDirectory(existing: disk.directory).remove()
    }
    var memory = InMemoryWidgetStore(
      table: disk.persistence.loadedTable, clock: { now / 1000 }, persistence: nil)
    let generator = WriteGenerator()
    let relaxed = options.durability == .relaxed
    var history = RelaxedCrashHistory(durable: memory)
    var step = 0
    while let operation = input.byte() {
      step += 1
      if operation % 8 == 7 {
        if operation & 0x80 != 0 {
          // A crash: the store starts from a copy of its files, and its
          // counter jumps to the clock, as after any unclean stop.
          let held: StoreState
          if relaxed {
            try disk.crashAndRecover(
              waitingForAcknowledgement: false, settle: operation & 0x40 != 0)
            do {
              held = try history.stateHeld(by: disk.store, clock: UInt64(now))
            } catch {
              throw FuzzFinding("after a relaxed crash at step \(step): \(error)")
            }
          } else {
            try disk.crashAndRecover(waitingForAcknowledgement: true, settle: false)
            held = StoreState(memory)
          }
          let restart = max(held.lastRevision, UInt64(now))
          memory = InMemoryWidgetStore(
            table: WidgetTable(widgets: held.widgets, lastRevision: restart, horizon: restart),
            clock: { now / 1000 }, persistence: nil)
          try compare(disk.store, memory, after: "a crash at step \(step)")
        } else {
          try disk.reopen()
          try compare(disk.store, memory, after: "a restart at step \(step)")
        }
        history = RelaxedCrashHistory(durable: memory)
        continue
      }
      let write = generator.write(operation, &input)
      let onDisk = write.apply(to: disk.store)
      let inMemory = write.apply(to: memory)
      if onDisk != inMemory {
        throw FuzzFinding(
          "step \(step), \(write): the SQLite store answered \(onDisk), memory \(inMemory)")
      }
      if relaxed { history.noteWrite(memory) }
    }
    try disk.reopen()
    try compare(disk.store, memory, after: "the final restart")
  }

  private static func compare(
    _ disk: InMemoryWidgetStore, _ memory: InMemoryWidgetStore, after moment: String
  ) throws(FuzzFinding) {
    let onDisk = StoreState(disk)
    let inMemory = StoreState(memory)
    guard onDisk.widgets == inMemory.widgets else {
      throw FuzzFinding(
        "after \(moment) the file holds \(onDisk.revisions), memory \(inMemory.revisions)"
          + (onDisk.revisions == inMemory.revisions ? " (same revisions, different content)" : ""))
    }
    guard onDisk.lastRevision == inMemory.lastRevision else {
      throw FuzzFinding(
        "after \(moment) the file's revision counter is \(onDisk.lastRevision), "
          + "memory's \(inMemory.lastRevision)")
    }
  }
}

/// The SQLite persistence and the store in front of it, as gauged builds them.
private struct DiskStore {
  private(set) var directory: String
  let options: StoreOptions
  private(set) var persistence: SQLiteWidgetPersistence
  private(set) var store: InMemoryWidgetStore

  init(directory: String, options: StoreOptions) throws(FuzzFinding) {
    self.directory = directory
    self.options = options
    (persistence, store) = try Self.open(directory, options)
  }

  private static func open(_ directory: String, _ options: StoreOptions) throws(FuzzFinding) -> (
    SQLiteWidgetPersistence, InMemoryWidgetStore
  ) {
    let persistence: SQLiteWidgetPersistence
    do {
      persistence = try SQLiteWidgetPersistence(directory: directory, options: options)
    } catch {
      throw FuzzFinding("cannot open the store: \(error)")
    }
    let store = InMemoryWidgetStore(
      table: persistence.loadedTable, clock: { StoreHarness.now / 1000 },
      persistence: persistence)
    return (persistence, store)
  }

  func close() throws(FuzzFinding) {
    do {
      try persistence.close()
    } catch {
      throw FuzzFinding("cannot close the store: \(error)")
    }
  }

  mutating func reopen() throws(FuzzFinding) {
    try close()
    (persistence, store) = try Self.open(directory, options)
  }

  /// Copies the files (the lock and SQLite's shared-memory index excepted,
  /// as a crash would lose them), closes this store and opens the copy.
  ///
  /// `waitingForAcknowledgement`: first waits until every write so far is
  /// acknowledged. Without it the writer may be committing while the files
  /// are read; that reads as a crash at that moment does, since the
  /// database file only changes at a checkpoint (at close here) and the WAL
  /// only grows, its torn end failing SQLite's frame checksums. `settle`
  /// gives the writer a few flush intervals first, so that crashes land
  /// after its commit as well as before.
  mutating func crashAndRecover(waitingForAcknowledgement: Bool, settle: Bool) throws(FuzzFinding) {
    if waitingForAcknowledgement {
      let acknowledged = Acknowledgement()
      persistence.whenDurable { acknowledged.settle($0) }
      if case .failure(let error) = acknowledged.wait() {
        throw FuzzFinding("a write was not made durable: \(error)")
      }
    }
    if settle { usleep(UInt32(max(options.flushIntervalMs, 1)) * 3000) }
    let copy = try TemporaryDirectory()
    for name in Syscall.directoryEntries(at: directory) ?? []
    where name != "gauged.lock" && !name.hasSuffix("-shm") {
      guard let bytes = CorpusFiles.read("\(directory)/\(name)"),
        CorpusFiles.write(bytes, to: "\(copy.path)/\(name)")
      else { throw FuzzFinding("cannot copy \(name) of the store") }
    }
    try close()
    TemporaryDirectory(existing: directory).remove()
    directory = copy.path
    (persistence, store) = try Self.open(directory, options)
  }
}

/// The answer `whenDurable` gives on the writer's thread, waited for here.
private final class Acknowledgement: Sendable {
  private let answer = Mutex<Result<Void, WidgetError>?>(nil)

  func settle(_ result: Result<Void, WidgetError>) {
    answer.withLock { $0 = result }
  }

  func wait() -> Result<Void, WidgetError> {
    while true {
      if let result = answer.withLock({ $0 }) { return result }
      usleep(100)
    }
  }
}

/// A folder of its own under /tmp, removed with what it holds.
private struct TemporaryDirectory {
  let path: String

  init() throws(FuzzFinding) {
    var template = Array("/tmp/gauge-fuzz-store.XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw FuzzFinding("cannot make a temporary directory")
    }
    path = String(cString: made)
  }

  init(existing path: String) {
    self.path = path
  }

  func remove() {
    for name in Syscall.directoryEntries(at: path) ?? [] { unlink("\(path)/\(name)") }
    rmdir(path)
  }
}
