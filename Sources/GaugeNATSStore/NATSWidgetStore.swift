import GaugeDomain
import GaugeMetrics
import GaugeNATS
import Synchronization

/// The `WidgetStore` of a gauged that shares its widgets with other
/// instances through a NATS JetStream key-value bucket. Reads, snapshots
/// and resumes answer from the replica, which only the bucket's watch
/// changes; writes validate and merge with the domain's functions and go
/// to the bucket with compare-and-set (`NATSWidgetStore+Writes.swift`).
/// Revisions are the bucket's sequence numbers, the same on every
/// instance. Writes block the calling thread for their round trips, except
/// PublishValues' values, which `ValuePuts` sends asynchronously.
public final class NATSWidgetStore: WidgetStore {
  let bucket: NATSKeyValueBucket
  let replica: WidgetReplica
  private let watch: KVWatch
  let clock: @Sendable () -> Int64
  /// How long a write waits for the watch to bring its change back, and a
  /// resume for a revision another instance gave out.
  let appliedWaitMs: Int64
  /// Compare-and-sets lost to another writer (each followed by a re-read
  /// and another try, or by `ABORTED`).
  let lostCompareAndSets = Atomic<Int>(0)
  /// JetStream's answer times, blocking writes' and value puts' alike.
  let putLatency = PutLatency()
  /// PublishValues' values on their way to the bucket.
  let valuePuts: ValuePuts
  let valueAcknowledgement: ValueAcknowledgement

  /// Starts watching the bucket from its first revision. Until the watch
  /// has caught up (`onLoaded`, which may run before this returns, on any
  /// thread), reads and writes fail as unavailable, and snapshots hold
  /// what has loaded so far.
  ///
  /// - Parameters:
  ///   - observer: each change the watch applies, in revision order, called
  ///     inside the replica's critical section (quick, and never calling
  ///     back into the store), as `InMemoryWidgetStore`'s observer.
  ///   - tombstoneRetentionMs: how long removals are remembered for resumes.
  ///   - valueAcknowledgement: when PublishValues' values count as durable.
  public init(
    bucket: NATSKeyValueBucket,
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMilliseconds,
    tombstoneRetentionMs: Int64 = 24 * 3600 * 1000, appliedWaitMs: Int64 = 5_000,
    valueAcknowledgement: ValueAcknowledgement = .onceStored,
    observer: (@Sendable (WidgetChange) -> Void)? = nil,
    onLoaded: @escaping @Sendable () -> Void = {}
  ) throws(NATSError) {
    let replica = WidgetReplica(
      clock: clock, tombstoneRetentionMs: tombstoneRetentionMs, observer: observer,
      onLoaded: onLoaded)
    self.bucket = bucket
    self.replica = replica
    self.clock = clock
    self.appliedWaitMs = appliedWaitMs
    self.valueAcknowledgement = valueAcknowledgement
    self.valuePuts = ValuePuts(
      bucket: bucket, replica: replica, appliedWaitMs: appliedWaitMs, latency: putLatency)
    self.watch = try bucket.watch(from: .revision(1), handler: replica.receive)
  }

  deinit {
    valuePuts.stop()
    watch.stop()
  }

  /// Whether the replica holds everything the bucket held at start.
  public var isLoaded: Bool { replica.isLoaded }

  /// How many widgets there are and the revision reached, for metrics.
  public var census: (widgets: Int, lastRevision: UInt64) { replica.census }

  /// Writes that lost a compare-and-set to another writer, for metrics.
  public var conflictCount: Int {
    lostCompareAndSets.load(ordering: .relaxed)
      + valuePuts.lostCompareAndSets.load(ordering: .relaxed)
  }

  /// How long JetStream took to answer each write, for metrics.
  public var putSeconds: HistogramSnapshot { putLatency.snapshot }

  /// Whether the connection to NATS is up now, for metrics.
  public var isConnected: Bool {
    bucket.connectionState == .connected || bucket.connectionState == .reconnected
  }

  /// Stops only the watch: the replica then lags the bucket, as a slow
  /// instance's would (for tests of lost races).
  func stopWatching() {
    watch.stop()
  }

  /// Sends the values still unsent and waits (a few seconds at most) for
  /// JetStream to store them, then stops the watch; the bucket stays open
  /// for its owner to close.
  public func stop() {
    valuePuts.stop()
    watch.stop()
  }

  func requireLoaded() throws(WidgetError) {
    guard replica.isLoaded else {
      throw .unavailable("gauged is still loading the widgets from NATS")
    }
  }

  public func get(id: String) throws(WidgetError) -> Widget {
    try requireLoaded()
    return try replica.get(id: id)
  }

  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    try requireLoaded()
    return try replica.list(query)
  }

  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) {
    replica.snapshot()
  }

  /// A revision past the replica's may come from another instance that has
  /// seen more of the bucket: when the bucket has it, the answer waits (at
  /// most `appliedWaitMs`) for the watch to bring it here.
  public func changes(since revision: UInt64) -> ChangesSince {
    if revision > replica.lastRevision, let last = try? bucket.revisionRange().last,
      revision <= last
    {
      replica.applied.wait(for: revision, timeoutMs: appliedWaitMs)
    }
    return replica.changes(since: revision)
  }

  /// A write returns after JetStream stored it (on as many servers as the
  /// bucket's replicas); PublishValues' values are stored a flush interval
  /// and a round trip later. With `.onceStored`, this waits for those;
  /// with `.onAcceptance` it answers at once, unless puts are failing.
  public func whenDurable(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    switch valueAcknowledgement {
    case .onceStored: valuePuts.whenStored(done)
    case .onAcceptance: done(durabilityIfSettled ?? .success(()))
    }
  }

  public var durabilityIfSettled: Result<Void, WidgetError>? {
    switch valueAcknowledgement {
    case .onceStored: valuePuts.settledAnswer
    case .onAcceptance: valuePuts.notStored.map { .failure($0) } ?? .success(())
    }
  }
}
