import GaugeDomain
import GaugeIO
import GaugeMetrics

/// What the event loops and the writer thread share, behind one mutex: the
/// changes waiting for a commit, who waits for them, and whether writes are
/// refused. Pure bookkeeping; the writer thread does the disk work.
///
/// Changes are counted as they are recorded; a durability waiter waits for
/// the count at the time it asked, and a commit makes durable every change
/// counted when its batch was taken.
struct WriteQueue {
  typealias Waiter = @Sendable (Result<Void, WidgetError>) -> Void

  private(set) var pending = RecordedChanges()
  /// When the oldest pending change was recorded (monotonic nanoseconds):
  /// relaxed mode commits one flush interval after it.
  private(set) var pendingSinceNs: UInt64 = 0
  /// Changes recorded so far, and how many of them are in the file.
  private(set) var recorded: UInt64 = 0
  private(set) var committed: UInt64 = 0
  /// In the order they asked, so their targets never decrease.
  private var waiters: [(through: UInt64, done: Waiter)] = []
  /// Why the last commit failed; cleared by the next one that succeeds.
  private(set) var diskFailure: String?
  private(set) var closing = false
  /// The writer thread is waiting for a first change and must be woken.
  var writerIdle = false
  var statistics = StoreStatistics()
  /// Written by the writer thread under the queue's lock, read by scrapes
  /// under it too.
  let commitSeconds = Histogram(upperBounds: HistogramBuckets.fastSeconds)
  /// Why the final flush failed, for `close` to report.
  var closeError: StoreError?

  var waiterCount: Int { waiters.count }

  /// What a write must fail with before it is applied, if anything.
  var blocker: WidgetError? {
    if closing { return .unavailable("the store is closed") }
    return diskFailure.map { .unavailable("not applied: \($0)") }
  }

  /// The answer for a change applied already while the disk fails (in the
  /// commit that failed, or in memory meanwhile): it stays queued.
  var notDurableError: WidgetError? {
    diskFailure.map(Self.notDurable)
  }

  static func notDurable(_ failure: String) -> WidgetError {
    .unavailable(
      "applied but not yet durable: \(failure); "
        + "the change stays queued and reaches the file once a retry succeeds")
  }

  /// Queues a change; true when the writer must be woken for it. `now`
  /// (monotonic nanoseconds) is read only for the first change of a batch.
  mutating func record(
    _ change: WidgetChange, removedAtMs: Int64?, now: () -> UInt64 = WakeSignal.nowNanoseconds
  ) -> Bool {
    if pending.isEmpty { pendingSinceNs = now() }
    pending.append(change, removedAtMs: removedAtMs)
    return counted()
  }

  /// `record` for a value-only change.
  mutating func recordValue(
    _ change: ValueChange, now: () -> UInt64 = WakeSignal.nowNanoseconds
  ) -> Bool {
    if pending.isEmpty { pendingSinceNs = now() }
    pending.appendValue(change)
    return counted()
  }

  /// `recordValue` for a run of value-only changes, under one lock.
  mutating func recordValues(
    _ changes: [ValueChange], now: () -> UInt64 = WakeSignal.nowNanoseconds
  ) -> Bool {
    guard !changes.isEmpty else { return false }
    if pending.isEmpty { pendingSinceNs = now() }
    for change in changes { pending.appendValue(change) }
    return counted(changes.count)
  }

  private mutating func counted(_ count: Int = 1) -> Bool {
    recorded += UInt64(count)
    guard writerIdle else { return false }
    writerIdle = false
    return true
  }

  /// Queues `done` until every change recorded so far is committed; returns
  /// the answer instead when there is nothing to wait for.
  mutating func waitUntilCommitted(_ done: @escaping Waiter) -> Result<Void, WidgetError>? {
    if committed >= recorded { return .success(()) }
    if closing, let closeError { return .failure(.unavailable(closeError.message)) }
    waiters.append((recorded, done))
    return nil
  }

  /// Hands the pending changes to the writer, which folds them outside
  /// the lock; `through` is the count a successful commit of them reaches.
  /// `spareValues`: an emptied buffer the next changes are recorded into.
  mutating func take() -> (changes: RecordedChanges, through: UInt64) {
    var noSpare: [ValueChange] = []
    return take(spareValues: &noSpare)
  }

  mutating func take(spareValues: inout [ValueChange]) -> (
    changes: RecordedChanges, through: UInt64
  ) {
    var spare: [ValueChange] = []
    swap(&spare, &spareValues)
    let taken = pending
    pending = RecordedChanges(foldThreshold: taken.foldThreshold, spareValues: spare)
    return (taken, recorded)
  }

  /// Returns the waiters the commit satisfied.
  mutating func commitSucceeded(through: UInt64) -> [Waiter] {
    committed = max(committed, through)
    diskFailure = nil
    return release(through: committed)
  }

  /// Refuses writes until a commit succeeds; returns the waiters whose
  /// changes were in the failed commit, to be answered `notDurableError`.
  mutating func commitFailed(through: UInt64, failure: String) -> [Waiter] {
    diskFailure = failure
    return release(through: through)
  }

  mutating func beginClosing() {
    closing = true
  }

  /// Every remaining waiter, when the final flush gave up.
  mutating func releaseAll() -> [Waiter] {
    release(through: .max)
  }

  private mutating func release(through: UInt64) -> [Waiter] {
    let count = waiters.prefix { $0.through <= through }.count
    let released = waiters.prefix(count).map(\.done)
    waiters.removeFirst(count)
    return released
  }
}

/// Counters for tests, logs and benchmarks.
public struct StoreStatistics: Sendable, Equatable {
  /// Transactions that committed changes, and those that failed.
  public var commits = 0
  public var failedCommits = 0
  /// Changes made durable, and the rows written for them (fewer when a
  /// widget changed several times between commits).
  public var changesCommitted = 0
  public var widgetRowsWritten = 0
  public var removalsWritten = 0
  /// Value-only changes written to the value log, and how many times the
  /// log was folded into the widget rows.
  public var valuesLogged = 0
  public var compactions = 0

  public init() {}
}
