import GaugeDomain
import GaugeNATS

/// PublishValues' values that JetStream has not stored yet, per widget, and
/// the callers waiting for them: the state behind `ValuePuts`'s mutex, with
/// no I/O of its own.
///
/// Each widget has at most one put in flight, sent with compare-and-set on
/// the revision it started from; values accepted meanwhile wait as one
/// (latest wins) for the next flush. Time is cut into flush epochs: values
/// accepted now belong to `epoch`, and a waiter registered in epoch E is
/// answered once no widget has a value of epoch E or earlier unstored.
struct PendingValues {
  typealias Completion = @Sendable (Result<Void, WidgetError>) -> Void

  /// The latest of the values accepted for a widget since `sinceEpoch`; it
  /// stands for all of them.
  struct Value {
    var value: Double
    var acceptedAtMs: Int64
    var sinceEpoch: UInt64
  }

  struct Entry {
    /// The widget as the bucket holds it at `widget.revision`, as far as
    /// this instance knows: what the next put starts from and expects.
    var widget: Widget
    var unsent: Value?
    var inFlight: Value?
    /// Whether a put of it failed and has not succeeded since.
    var failed = false

    /// The epoch of its oldest value not yet stored.
    var unsettledSince: UInt64? { inFlight?.sinceEpoch ?? unsent?.sinceEpoch }
  }

  /// A put to send: `widget` with its latest value, replacing the key's
  /// `expectedRevision`.
  struct Put {
    let id: String
    let widget: Widget
    let expectedRevision: UInt64
  }

  private var entries: [String: Entry] = [:]
  /// Ids with an unsent value and nothing in flight.
  private var ready: [String] = []
  /// Ids whose put lost a compare-and-set, to be read from the bucket again.
  private var conflicted: [String] = []
  /// Ids whose put failed, sent again at the next retry.
  private var failedIDs: [String] = []
  /// Ids with nothing left to send, forgotten once the replica has their
  /// last put.
  private var idle: [String] = []
  /// Widgets whose put failed and has not succeeded since.
  private var failing = 0
  private var lastFailure: NATSError?
  private(set) var epoch: UInt64 = 1
  /// How many widgets have their oldest unstored value in each epoch.
  private var unsettledByEpoch: [UInt64: Int] = [:]
  private var waiters: [(epoch: UInt64, done: Completion)] = []
  /// The highest revision a put of this instance was stored under.
  private(set) var lastStoredRevision: UInt64 = 0

  /// Why values are refused now: while a put keeps failing, accepting more
  /// would only grow what is not stored.
  var blocker: WidgetError? {
    guard failing > 0, let lastFailure else { return nil }
    return WidgetError(lastFailure)
  }

  /// What a waiter is told about values accepted but not stored.
  var notStored: WidgetError? {
    guard failing > 0, let lastFailure else { return nil }
    return .unavailable("accepted values are not yet stored in NATS: \(lastFailure)")
  }

  var hasUnstoredValues: Bool { !unsettledByEpoch.isEmpty }

  var hasFailures: Bool { failing > 0 }

  /// Accepts `value` for `id` when it is valid for the widget as this
  /// instance knows it (a pending one, or `lookUp`'s). Returns whether the
  /// flusher has new work; nil when neither knows the widget.
  mutating func accept(
    _ value: Double, id: String, now: Int64, lookUp: (String) -> Widget?
  ) throws(WidgetError) -> Bool? {
    if let index = entries.index(forKey: id) {
      if entries.values[index].unsettledSince == nil, let newer = lookUp(id),
        newer.revision > entries.values[index].widget.revision
      {
        // Written since this instance's last put, through here or another.
        entries.values[index].widget = newer
      }
      try WidgetTable.checkValue(value, for: entries.values[index].widget.content.template)
      return accept(value, id: id, now: now, at: index)
    }
    guard let widget = lookUp(id) else { return nil }
    try WidgetTable.checkValue(value, for: widget.content.template)
    entries[id] = Entry(widget: widget)
    return accept(value, id: id, now: now, at: entries.index(forKey: id)!)
  }

  private mutating func accept(
    _ value: Double, id: String, now: Int64, at index: [String: Entry].Index
  ) -> Bool {
    let before = entries.values[index]
    entries.values[index].unsent = Value(
      value: value, acceptedAtMs: now, sinceEpoch: before.unsent?.sinceEpoch ?? epoch)
    if before.unsettledSince == nil { unsettledByEpoch[epoch, default: 0] += 1 }
    guard before.unsent == nil, before.inFlight == nil, !before.failed else { return false }
    ready.append(id)
    return true
  }

  /// Starts a new epoch and takes a put for every widget ready to send
  /// (with those whose put failed when `retrying`).
  mutating func startFlush(retrying: Bool) -> [Put] {
    epoch += 1
    if retrying {
      ready += failedIDs
      failedIDs.removeAll()
    }
    var puts: [Put] = []
    puts.reserveCapacity(ready.count)
    for id in ready {
      guard let index = entries.index(forKey: id), let unsent = entries.values[index].unsent,
        entries.values[index].inFlight == nil
      else { continue }
      entries.values[index].inFlight = unsent
      entries.values[index].unsent = nil
      let base = entries.values[index].widget
      puts.append(
        Put(
          id: id,
          widget: ValueChange(
            id: id, value: unsent.value, revision: base.revision,
            updatedAtMs: unsent.acceptedAtMs
          ).applied(to: base),
          expectedRevision: base.revision))
    }
    ready.removeAll(keepingCapacity: true)
    return puts
  }

  /// JetStream stored the put in flight for `id` under `revision`.
  mutating func stored(_ id: String, revision: UInt64) {
    guard let index = entries.index(forKey: id), let sent = entries.values[index].inFlight else {
      return
    }
    entries.values[index].widget = ValueChange(
      id: id, value: sent.value, revision: revision, updatedAtMs: sent.acceptedAtMs
    ).applied(to: entries.values[index].widget)
    entries.values[index].inFlight = nil
    lastStoredRevision = max(lastStoredRevision, revision)
    if entries.values[index].failed {
      entries.values[index].failed = false
      failing -= 1
    }
    let next = entries.values[index].unsent?.sinceEpoch
    moveUnsettled(from: sent.sinceEpoch, to: next)
    if next != nil { ready.append(id) } else { idle.append(id) }
  }

  /// The put in flight for `id` lost its compare-and-set: another write
  /// came first. The widget is read again before its value goes out again.
  mutating func lostRace(_ id: String) {
    conflicted.append(id)
  }

  mutating func takeConflicted() -> [String] {
    defer { conflicted.removeAll() }
    return conflicted
  }

  /// The bucket's `latest` widget for a put that lost its race: the latest
  /// value goes on top of it, unless the widget is gone, a write made
  /// after the value was accepted superseded it, or its bounds no longer
  /// admit it. Returns whether the flusher has new work.
  mutating func reread(_ id: String, latest: Widget?) -> Bool {
    guard let index = entries.index(forKey: id), let sent = entries.values[index].inFlight else {
      return false
    }
    var value = entries.values[index].unsent ?? sent
    value.sinceEpoch = sent.sinceEpoch
    entries.values[index].inFlight = nil
    entries.values[index].unsent = nil
    if let latest {
      entries.values[index].widget = latest
      let admitted = (try? WidgetTable.checkValue(value.value, for: latest.content.template)) != nil
      if admitted, latest.updatedAtMs <= value.acceptedAtMs {
        entries.values[index].unsent = value
        ready.append(id)
        return true
      }
    }
    if entries.values[index].failed {
      entries.values[index].failed = false
      failing -= 1
    }
    moveUnsettled(from: value.sinceEpoch, to: nil)
    if latest == nil { entries.remove(at: index) } else { idle.append(id) }
    return false
  }

  /// The put in flight for `id` failed (or could not be sent): its value
  /// waits for the next retry, and new values are refused until then.
  /// Returns the waiters whose values it holds, to be told.
  mutating func failed(_ id: String, _ error: NATSError) -> [Completion] {
    guard let index = entries.index(forKey: id), let sent = entries.values[index].inFlight else {
      return []
    }
    var value = entries.values[index].unsent ?? sent
    value.sinceEpoch = sent.sinceEpoch
    entries.values[index].unsent = value
    entries.values[index].inFlight = nil
    if !entries.values[index].failed {
      entries.values[index].failed = true
      failing += 1
    }
    failedIDs.append(id)
    lastFailure = error
    let told = waiters.filter { $0.epoch >= value.sinceEpoch }
    waiters.removeAll { $0.epoch >= value.sinceEpoch }
    return told.map(\.done)
  }

  /// Registers `done` for the values accepted so far; returns its answer
  /// instead when there is one now.
  mutating func whenStored(_ done: @escaping Completion) -> Result<Void, WidgetError>? {
    if let answer = settledAnswer { return answer }
    waiters.append((epoch, done))
    return nil
  }

  /// What a waiter would be told now, when it would be told at once.
  var settledAnswer: Result<Void, WidgetError>? {
    if let notStored { return .failure(notStored) }
    return unsettledByEpoch.isEmpty ? .success(()) : nil
  }

  /// The waiters whose values are all stored, in the order they came.
  mutating func takeSettledWaiters() -> [Completion] {
    guard !waiters.isEmpty else { return [] }
    let oldestUnsettled = unsettledByEpoch.keys.min() ?? .max
    let settled = waiters.prefix { $0.epoch < oldestUnsettled }.count
    defer { waiters.removeFirst(settled) }
    return waiters.prefix(settled).map(\.done)
  }

  /// Every waiter, for when no answer will come (the store stops).
  mutating func takeAllWaiters() -> [Completion] {
    defer { waiters.removeAll() }
    return waiters.map(\.done)
  }

  /// Forgets widgets with nothing to send whose last put the replica has
  /// applied: the replica then knows them as well as this does.
  mutating func forgetIdle(appliedThrough applied: UInt64) {
    guard !idle.isEmpty else { return }
    var waiting: [String] = []
    for id in idle {
      guard let index = entries.index(forKey: id), entries.values[index].unsettledSince == nil,
        !entries.values[index].failed
      else { continue }
      if entries.values[index].widget.revision <= applied {
        entries.remove(at: index)
      } else {
        waiting.append(id)
      }
    }
    idle = waiting
  }

  private mutating func moveUnsettled(from old: UInt64, to new: UInt64?) {
    if let count = unsettledByEpoch[old], count > 1 {
      unsettledByEpoch[old] = count - 1
    } else {
      unsettledByEpoch.removeValue(forKey: old)
    }
    if let new { unsettledByEpoch[new, default: 0] += 1 }
  }
}
