import GaugeDomain
import GaugeIO
import GaugeMetrics
import GaugeNATS
import Synchronization

/// PublishValues through NATS. A value is checked against its widget's
/// bounds when it arrives and accepted or rejected at once; the values a
/// widget gets within one flush interval go to JetStream as one
/// asynchronous put of the latest (subscribers would see only the latest
/// anyway), with compare-and-set on the revision it started from. A put
/// that loses to another writer reads the widget again and puts only the
/// value on top of it. A thread of its own (started with the first value)
/// gathers, sends, and answers the callers waiting for their values to be
/// stored; acknowledgements arrive on libnats's thread.
final class ValuePuts: Sendable {
  /// How long values gather before they go out.
  static let flushIntervalNs: UInt64 = 1_000_000
  /// How long after a failed put it is tried again.
  static let retryIntervalNs: UInt64 = 250_000_000
  /// How long stopping waits for values still unstored.
  static let stopWaitNs: UInt64 = 5_000_000_000

  private let pending = Mutex(PendingValues())
  private let wake = WakeSignal()
  private let bucket: NATSKeyValueBucket
  private let replica: WidgetReplica
  private let appliedWaitMs: Int64
  private let thread = Mutex<ThreadState>(.notStarted)
  private let stopping = Atomic<Bool>(false)
  /// Puts that lost a compare-and-set to another writer.
  let lostCompareAndSets = Atomic<Int>(0)
  /// From each put's send to JetStream's acknowledgement.
  private let latency: PutLatency

  private enum ThreadState {
    case notStarted
    case running(PosixThread)
    case stopped
  }

  init(
    bucket: NATSKeyValueBucket, replica: WidgetReplica, appliedWaitMs: Int64,
    latency: PutLatency = PutLatency()
  ) {
    self.latency = latency
    self.bucket = bucket
    self.replica = replica
    self.appliedWaitMs = appliedWaitMs
  }

  /// Accepts or rejects each value, in order; returns the rejected ones.
  func accept(_ updates: [ValueSet], now: Int64) -> [ValueSetRejection] {
    var rejections: [ValueSetRejection] = []
    // Offsets of values to widgets neither the pending puts nor the
    // replica know: made through another instance a moment ago, or absent.
    var unknown: [Int] = []
    let replica = self.replica
    let (refusal, hasWork) = pending.withLock { pending -> (WidgetError?, Bool) in
      if let blocker = pending.blocker { return (blocker, false) }
      var hasWork = false
      for (offset, update) in updates.enumerated() {
        do throws(WidgetError) {
          switch try pending.accept(
            update.value, id: update.id, now: now, lookUp: { replica.widget(id: $0) })
          {
          case nil: unknown.append(offset)
          case true?: hasWork = true
          case false?: break
          }
        } catch {
          rejections.append(ValueSetRejection(offset: offset, error: error))
        }
      }
      return (nil, hasWork)
    }
    if let refusal {
      return updates.indices.map { ValueSetRejection(offset: $0, error: refusal) }
    }
    var woke = hasWork
    if !unknown.isEmpty {
      woke = acceptFromBucket(updates, offsets: unknown, now: now, rejections: &rejections) || woke
      rejections.sort { $0.offset < $1.offset }
    }
    if woke { startIfNeeded() }
    return rejections
  }

  /// The values at `offsets`, for widgets read from the bucket one id at a
  /// time (their values keep their order).
  private func acceptFromBucket(
    _ updates: [ValueSet], offsets: [Int], now: Int64, rejections: inout [ValueSetRejection]
  ) -> Bool {
    var hasWork = false
    var byID: [String: [Int]] = [:]
    var ids: [String] = []
    for offset in offsets {
      let id = updates[offset].id
      if byID[id] == nil { ids.append(id) }
      byID[id, default: []].append(offset)
    }
    for id in ids {
      let offsetsOfID = byID[id]!
      let latest: Widget
      do throws(WidgetError) {
        guard WidgetID.isValid(id) else { throw .invalid([WidgetID.violation(of: id)!]) }
        guard let found = try bucket.widget(id) else { throw .notFound(id: id) }
        latest = found
      } catch {
        rejections += offsetsOfID.map { ValueSetRejection(offset: $0, error: error) }
        continue
      }
      let replica = self.replica
      pending.withLock { pending in
        for offset in offsetsOfID {
          do throws(WidgetError) {
            let accepted = try pending.accept(
              updates[offset].value, id: id, now: now,
              lookUp: { $0 == id ? latest : replica.widget(id: $0) })
            if accepted == true { hasWork = true }
          } catch {
            rejections.append(ValueSetRejection(offset: offset, error: error))
          }
        }
      }
    }
    return hasWork
  }

  /// Calls `done` once every value accepted before is stored in JetStream
  /// (and the replica has it), or with why not.
  func whenStored(_ done: @escaping @Sendable (Result<Void, WidgetError>) -> Void) {
    if let answer = pending.withLock({ $0.whenStored(done) }) { done(answer) }
  }

  /// What `whenStored` would answer now, when it would answer at once.
  var settledAnswer: Result<Void, WidgetError>? { pending.withLock { $0.settledAnswer } }

  /// Why values are not stored now, for the answers of relaxed durability.
  var notStored: WidgetError? { pending.withLock { $0.notStored } }

  /// Sends what is still unsent and waits (a few seconds at most) for it
  /// to be stored; then the thread ends. Idempotent.
  func stop() {
    let running = thread.withLock { state -> PosixThread? in
      defer { state = .stopped }
      if case .running(let thread) = state { return thread }
      return nil
    }
    guard let running else { return }
    stopping.store(true, ordering: .releasing)
    wake.signal()
    running.join()
  }

  private func startIfNeeded() {
    let spawnFailure = thread.withLock { state -> String? in
      guard case .notStarted = state else { return nil }
      do {
        state = .running(try PosixThread.spawn(name: "gauge-nats-puts") { [self] in run() })
        return nil
      } catch {
        return "\(error)"
      }
    }
    if let spawnFailure {
      // Values stay unsent, and waiters unanswered, with no thread: say so.
      let waiters = pending.withLock { $0.takeAllWaiters() }
      for done in waiters {
        done(.failure(.unavailable("cannot start the thread for NATS puts: \(spawnFailure)")))
      }
    }
    wake.signal()
  }

  private func run() {
    var retryAt: UInt64?
    var stopDeadline: UInt64?
    while true {
      let isStopping = stopping.load(ordering: .acquiring)
      if isStopping, stopDeadline == nil {
        stopDeadline = WakeSignal.nowNanoseconds() + Self.stopWaitNs
      }
      if !isStopping {
        wake.wait(untilNanoseconds: retryAt)
        // Values that arrive within the interval go out as one put per widget.
        let gathered = WakeSignal.nowNanoseconds() + Self.flushIntervalNs
        while WakeSignal.nowNanoseconds() < gathered, !stopping.load(ordering: .acquiring) {
          wake.wait(untilNanoseconds: gathered)
        }
      }
      let now = WakeSignal.nowNanoseconds()
      let retrying = retryAt.map { now >= $0 } ?? false
      if retrying { retryAt = nil }
      let (puts, conflicted) = pending.withLock { pending in
        (pending.startFlush(retrying: retrying), pending.takeConflicted())
      }
      if readAgain(conflicted) { wake.signal() }
      send(puts)
      answerSettledWaiters()
      let applied = replica.lastRevision
      let (unstored, failures) = pending.withLock { pending in
        pending.forgetIdle(appliedThrough: applied)
        return (pending.hasUnstoredValues, pending.hasFailures)
      }
      if failures, retryAt == nil { retryAt = now + Self.retryIntervalNs }
      guard let stopDeadline else { continue }
      if !unstored || now >= stopDeadline { break }
      // Stopping: wait for acknowledgements (or the next retry) briefly.
      wake.wait(untilNanoseconds: min(now + Self.flushIntervalNs, stopDeadline))
      if failures, let due = retryAt, due > now { retryAt = now }
    }
    let unanswered = pending.withLock { $0.takeAllWaiters() }
    for done in unanswered {
      done(.failure(.unavailable("gauged stopped before NATS stored every accepted value")))
    }
  }

  /// Reads the widgets whose puts lost their race; whether any has a value
  /// to send again.
  private func readAgain(_ ids: [String]) -> Bool {
    var hasWork = false
    for id in ids {
      let latest: Widget?
      do throws(WidgetError) {
        latest = try bucket.widget(id)
      } catch {
        // Treated as a failed put: the value waits for the retry.
        let waiters = pending.withLock { pending in
          pending.failed(
            id, NATSError(operation: "get \(id)", kind: .unavailable, detail: error.message))
        }
        tell(waiters)
        continue
      }
      if pending.withLock({ $0.reread(id, latest: latest) }) { hasWork = true }
    }
    return hasWork
  }

  private func send(_ puts: [PendingValues.Put]) {
    for put in puts {
      let id = put.id
      let startedAt = NanosecondClock.now()
      do throws(NATSError) {
        try bucket.updateAsync(
          WidgetKey.key(for: id), WidgetValue.encode(put.widget),
          expectingRevision: put.expectedRevision
        ) { [self] result in
          latency.observe(since: startedAt)
          answered(id, result)
        }
      } catch {
        answered(id, .failure(error))
      }
    }
  }

  /// JetStream's answer to the put for `id`, on libnats's thread (or this
  /// one, for a put that could not be sent).
  private func answered(_ id: String, _ result: Result<KVWriteResult, NATSError>) {
    let told = pending.withLock { pending -> [PendingValues.Completion] in
      switch result {
      case .success(.written(let revision)):
        pending.stored(id, revision: revision)
        return []
      case .success(.conflict):
        pending.lostRace(id)
        return []
      case .failure(let error):
        return pending.failed(id, error)
      }
    }
    if case .success(.conflict) = result { lostCompareAndSets.add(1, ordering: .relaxed) }
    tell(told)
    wake.signal()
  }

  private func tell(_ waiters: [PendingValues.Completion]) {
    guard !waiters.isEmpty, let notStored else { return }
    for done in waiters { done(.failure(notStored)) }
  }

  /// Answers the waiters whose values are stored, once the replica has
  /// applied them, so that reads on this instance after the answer see them.
  private func answerSettledWaiters() {
    let (waiters, revision) = pending.withLock { ($0.takeSettledWaiters(), $0.lastStoredRevision) }
    guard !waiters.isEmpty else { return }
    replica.applied.wait(for: revision, timeoutMs: appliedWaitMs)
    for done in waiters { done(.success(())) }
  }
}
