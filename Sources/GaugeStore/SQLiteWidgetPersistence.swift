import GaugeDomain
import GaugeIO
import GaugeMetrics
import Synchronization

/// Keeps widgets in `DIR/gauged.sqlite3` (WAL mode, `synchronous=FULL`):
/// the `WidgetPersistence` behind `InMemoryWidgetStore`.
///
/// `record` only queues. One writer thread owns the database after start:
/// it takes everything queued since its last commit and writes it in one
/// transaction (group commit), the latest value per widget once. Strict
/// durability answers `whenDurable` after that commit; relaxed answers at
/// once and the writer commits within the flush interval. A failed commit
/// answers its waiters UNAVAILABLE, saying their changes are applied but not
/// yet durable (they stay queued for the retry), and refuses writes
/// (`writeBlocker`) until a retry succeeds; reads never touch the file.
public final class SQLiteWidgetPersistence: WidgetPersistence {
  public let databasePath: String
  /// The state the file held, for `InMemoryWidgetStore` to start from.
  public let loadedTable: WidgetTable
  /// How long a connection waits for another's commit before failing.
  static let busyTimeoutMs = 5000
  /// The bearer tokens in the file, read at start.
  public let loadedTokens: [AccessToken]

  private let options: StoreOptions
  private let queue = Mutex(WriteQueue())
  /// Mirrors `queue.blocker != nil`, written under the queue's lock, so the
  /// check every write makes first costs no lock while writes flow.
  private let blocked = Atomic<Bool>(false)
  private let wake = WakeSignal()
  private let directory: DataDirectory
  private let connection: SQLiteConnection
  private let writerThread = Mutex<PosixThread?>(nil)

  /// Opens (creating when missing) the data directory and its database,
  /// migrates the schema, loads the stored state and starts the writer.
  ///
  /// After an unclean stop the revision counter restarts at the current
  /// Unix time in microseconds (never below the stored counter), with the
  /// horizon there: the lost process may have handed out revisions that
  /// never reached the file, and none of them may be reused or resumed from.
  public init(directory path: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
    let directory = try DataDirectory(path: path)
    let databasePath = directory.databasePath
    let connection: SQLiteConnection
    let journalMode: String?
    do {
      connection = try SQLiteConnection(path: databasePath)
      journalMode = try connection.pragma("PRAGMA journal_mode = WAL")
      try connection.execute("PRAGMA synchronous = FULL")
      // Token changes commit on a connection of their own
      // (`SQLiteTokenPersistence`): wait for them rather than fail.
      try connection.execute("PRAGMA busy_timeout = \(Self.busyTimeoutMs)")
      // The value log's pages are freed at each compaction and written
      // again by the next commits. A checkpoint copies each page's latest
      // frame once, so the longer the WAL between checkpoints (64 MiB
      // here, 4 MiB by default), the fewer copies of the same log pages
      // reach the database file.
      try connection.execute("PRAGMA wal_autocheckpoint = 16384")
    } catch {
      throw StoreError("cannot open \(databasePath): \(error)")
    }
    guard journalMode == "wal" else {
      throw StoreError(
        "cannot use WAL mode for \(databasePath) (the journal mode stays \(journalMode ?? "?"))")
    }
    try StoreSchema.migrate(connection)
    let tokens = try TokenRows.load(from: connection)
    var stored = try StoredState.load(from: connection)
    let now = options.clock()
    if !stored.cleanShutdown {
      let restart = max(stored.lastRevision, UInt64(max(now, 0)))
      stored.lastRevision = restart
      stored.horizon = max(stored.horizon, restart)
    }
    let writer: BatchWriter
    do {
      writer = try BatchWriter(connection: connection)
      try writer.markShutdown(
        clean: false, lastRevision: stored.lastRevision, horizon: stored.horizon)
    } catch {
      throw StoreError("cannot write to \(databasePath): \(error)")
    }

    self.databasePath = databasePath
    self.loadedTokens = tokens
    self.loadedTable = stored.table(
      expiringRemovalsBefore: now / 1000 - options.tombstoneRetentionMs)
    self.options = options
    self.directory = directory
    self.connection = connection

    let replayed = stored.valueLogRows > 0 ? stored.replayedIDs : nil
    do {
      let thread = try PosixThread.spawn(name: "gauge-store") { [self, replayed] in
        runWriter(writer, replayed: replayed)
      }
      writerThread.withLock { $0 = thread }
    } catch {
      throw StoreError("cannot start the store's writer thread: \(error)")
    }
  }

  public func record(_ change: WidgetChange, removedAtMs: Int64?) {
    if queue.withLock({ $0.record(change, removedAtMs: removedAtMs) }) { wake.signal() }
  }

  public func recordValue(_ change: ValueChange) {
    if queue.withLock({ $0.recordValue(change) }) { wake.signal() }
  }

  public func recordValues(_ changes: [ValueChange]) {
    if queue.withLock({ $0.recordValues(changes) }) { wake.signal() }
  }

  public func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    if let settled = durabilityIfSettled { return done(settled) }
    if let answer = queue.withLock({ $0.waitUntilCommitted(done) }) { done(answer) }
  }

  /// Relaxed mode answers at once: applied in memory is enough, unless the
  /// file is failing, and then the answer says the change is applied but not
  /// yet durable. Asked after the change is applied, so never a refusal.
  public var durabilityIfSettled: Result<Void, WidgetError>? {
    guard options.durability == .relaxed else { return nil }
    guard blocked.load(ordering: .acquiring) else { return .success(()) }
    let failure = queue.withLock { $0.notDurableError }
    return failure.map { .failure($0) } ?? .success(())
  }

  public var writeBlocker: WidgetError? {
    guard blocked.load(ordering: .acquiring) else { return nil }
    return queue.withLock { $0.blocker }
  }

  public var statistics: StoreStatistics {
    queue.withLock { $0.statistics }
  }

  /// How long the transactions that committed took, in seconds.
  public var commitSeconds: HistogramSnapshot {
    queue.withLock { $0.commitSeconds.snapshot }
  }

  /// Changes recorded and not yet committed.
  public var queueDepth: Int {
    queue.withLock { Int($0.recorded - $0.committed) }
  }

  /// Refuses further writes, commits everything queued, marks the file as
  /// cleanly closed, and releases the file and the directory lock. Throws
  /// when the last changes could not be written (after a few retries).
  public func close() throws(StoreError) {
    guard let thread = writerThread.withLock({ $0.take() }) else { return }
    queue.withLock { queue in
      queue.beginClosing()
      blocked.store(true, ordering: .releasing)
    }
    wake.signal()
    thread.join()
    connection.close()
    directory.release()
    if let error = queue.withLock({ $0.closeError }) { throw error }
  }

  // MARK: - The writer thread

  /// `replayed`: the widgets a value log left at start changed, when
  /// there was a log to fold.
  private func runWriter(_ writer: BatchWriter, replayed: Set<String>?) {
    if options.durability == .relaxed {
      // Nothing waits for a relaxed commit, while producers wait for the
      // event loops: when the cores are busy the loops go first, and the
      // writer, latest value per widget, writes fewer and larger batches.
      // Strict writers keep full priority, since every ack waits on them.
      try? Syscall.setCurrentThreadNice(relaxedWriterNice)
    }
    // A batch whose commit failed, retried together with what came since.
    var carried: PendingBatch?
    var retryDelayMs = 0
    var failuresWhileClosing = 0
    var lastBatchWidth = 0
    // The last batch's value buffer, emptied: recording into a buffer
    // that already has the capacity spares the event loops its growth.
    var spareValues: [ValueChange] = []
    var compactor = ValueLogCompactor(widgets: loadedTable.widgets)
    if let replayed { compactor.replayed(replayed, now: WakeSignal.nowNanoseconds()) }
    while true {
      let closing = waitForWork(carrying: carried != nil)
      if !closing {
        if carried != nil {
          sleepUnlessClosing(until: WakeSignal.nowNanoseconds() + nanoseconds(retryDelayMs))
        } else if options.durability == .relaxed {
          // Everything recorded within one flush interval of the oldest
          // pending change goes into this commit.
          let since = queue.withLock { $0.pendingSinceNs }
          sleepUnlessClosing(until: since + nanoseconds(options.flushIntervalMs))
        }
      }
      let (changes, through, isClosing) = queue.withLock { queue in
        let (changes, through) = queue.take(spareValues: &spareValues)
        return (changes, through, queue.closing)
      }
      var batch = changes.batch(expectedWidgets: lastBatchWidth)
      lastBatchWidth = batch.width
      if var earlier = carried {
        earlier.absorb(batch)
        batch = earlier
      }
      if batch.isEmpty {
        // Only when closing: everything is in the file.
        finish(writer, compactor: &compactor)
        return
      }
      do {
        let cutoffMs = options.clock() / 1000 - options.tombstoneRetentionMs
        let (writes, logged) = batch.rows()
        let commitStart = WakeSignal.nowNanoseconds()
        try writer.commit(
          writes, loggedValues: logged, lastRevision: batch.lastRevision,
          expiringRemovalsBefore: cutoffMs)
        let now = WakeSignal.nowNanoseconds()
        let commitSeconds = Double(now - commitStart) / 1e9
        compactor.committed(writes, loggedValues: logged, now: now)
        var rows = (widgets: 0, removals: 0)
        for write in writes.values {
          if case .upsert = write { rows.widgets += 1 } else { rows.removals += 1 }
        }
        var compacted = false
        if compactor.isDue(now: now) {
          // Left in place on failure: the log is replayed at start anyway.
          compacted = (try? compactor.compact(with: writer)) != nil
        }
        let released = queue.withLock { queue in
          queue.statistics.commits += 1
          queue.commitSeconds.observe(commitSeconds)
          queue.statistics.changesCommitted += batch.changeCount
          queue.statistics.widgetRowsWritten += rows.widgets
          queue.statistics.removalsWritten += rows.removals
          queue.statistics.valuesLogged += logged.count
          if compacted { queue.statistics.compactions += 1 }
          let released = queue.commitSucceeded(through: through)
          blocked.store(queue.blocker != nil, ordering: .releasing)
          return released
        }
        if carried != nil {
          options.log(false, "\(databasePath) is writable again; accepting writes")
        }
        carried = nil
        retryDelayMs = 0
        for done in released { done(.success(())) }
      } catch {
        // The changes in this commit are applied and visible already, and
        // stay queued for the retry; writes from now on are refused before
        // they are applied. Their answers say which of the two they are.
        let failure = "the store cannot write to \(databasePath): \(error)"
        let released = queue.withLock { queue in
          queue.statistics.failedCommits += 1
          let released = queue.commitFailed(through: through, failure: failure)
          blocked.store(true, ordering: .releasing)
          return released
        }
        if carried == nil {
          options.log(
            true, "cannot write to \(databasePath): \(error); refusing writes, retrying")
        }
        carried = batch
        retryDelayMs = min(max(retryDelayMs * 2, 50), 1000)
        let notDurable = WriteQueue.notDurable(failure)
        for done in released { done(.failure(notDurable)) }
        if isClosing {
          failuresWhileClosing += 1
          if failuresWhileClosing >= 3 {
            giveUp(unwritten: batch.changeCount, because: error)
            return
          }
        }
      }
      if carried == nil { spareValues = batch.takeValueBuffer() }
    }
  }

  /// Until there is something to commit or the store is closing; returns
  /// whether it is closing.
  private func waitForWork(carrying: Bool) -> Bool {
    while true {
      let ready: Bool? = queue.withLock { queue in
        if queue.closing || carrying || !queue.pending.isEmpty {
          queue.writerIdle = false
          return queue.closing
        }
        queue.writerIdle = true
        return nil
      }
      if let closing = ready { return closing }
      wake.wait()
    }
  }

  private func sleepUnlessClosing(until deadline: UInt64) {
    while WakeSignal.nowNanoseconds() < deadline, !queue.withLock({ $0.closing }) {
      wake.wait(untilNanoseconds: deadline)
    }
  }

  private let relaxedWriterNice: Int32 = 10

  private func nanoseconds(_ milliseconds: Int) -> UInt64 {
    UInt64(max(milliseconds, 0)) * 1_000_000
  }

  private func finish(_ writer: BatchWriter, compactor: inout ValueLogCompactor) {
    do {
      try compactor.compact(with: writer)
      try writer.markShutdown(clean: true)
    } catch {
      let failure = StoreError("cannot mark \(databasePath) as cleanly closed: \(error)")
      queue.withLock { $0.closeError = failure }
    }
  }

  private func giveUp(unwritten: Int, because error: SQLiteError) {
    let failure = StoreError(
      "could not write the last \(unwritten) changes to \(databasePath) before stopping: \(error)")
    let released = queue.withLock { queue in
      queue.closeError = failure
      return queue.releaseAll()
    }
    for done in released { done(.failure(.unavailable(failure.message))) }
  }
}
