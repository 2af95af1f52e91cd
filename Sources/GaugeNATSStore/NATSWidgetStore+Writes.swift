import GaugeDomain
import GaugeNATS
import Glibc

extension NATSWidgetStore {
  /// How many times a write is tried against the widget's latest revision
  /// before it gives up as `ABORTED`.
  static let maxWriteAttempts = 8

  public func put(_ request: WidgetPut) throws(WidgetError) -> (widget: Widget, created: Bool) {
    try put(request, precondition: .none)
  }

  public func update(_ request: WidgetUpdate) throws(WidgetError) -> Widget {
    try update(request, precondition: .none).widget
  }

  public func setValue(_ value: Double, id: String) throws(WidgetError) -> Widget {
    try upserted(
      write(id: id, fromBucket: false) { (table, now) throws(WidgetError) in
        try table.setValue(value, id: id, now: now)
      }
    ).widget
  }

  /// One compare-and-set write per value, each waiting for its round trip;
  /// the replica is waited for once, for the last of them. Coalescing a
  /// burst and publishing asynchronously is a later step.
  public func setValues(_ updates: [ValueSet]) -> [ValueSetRejection] {
    var rejections: [ValueSetRejection] = []
    var lastWritten: UInt64 = 0
    // What this batch wrote, which the replica may not have applied yet:
    // the next value to the same widget starts from it.
    var written: [String: Widget] = [:]
    for (offset, update) in updates.enumerated() {
      do throws(WidgetError) {
        let change = try write(
          id: update.id, fromBucket: false, startingFrom: written[update.id],
          awaitingReplica: false
        ) { (table, now) throws(WidgetError) in
          try table.setValue(update.value, id: update.id, now: now)
        }
        if let widget = change.widget { written[widget.id] = widget }
        lastWritten = max(lastWritten, change.revision)
      } catch {
        rejections.append(ValueSetRejection(offset: offset, error: error))
      }
    }
    if lastWritten > 0 { replica.applied.wait(for: lastWritten, timeoutMs: appliedWaitMs) }
    return rejections
  }

  public func delete(id: String) throws(WidgetError) {
    try delete(id: id, precondition: .none)
  }

  public func put(_ request: WidgetPut, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try upserted(
      write(id: request.id, fromBucket: precondition != .none) { (table, now) throws(WidgetError) in
        try table.check(precondition, id: request.id)
        return try table.put(request, now: now)
      })
  }

  public func update(_ request: WidgetUpdate, precondition: WritePrecondition) throws(WidgetError)
    -> (widget: Widget, created: Bool)
  {
    try upserted(
      write(id: request.id, fromBucket: precondition != .none) { (table, now) throws(WidgetError) in
        try table.check(precondition, id: request.id)
        return try table.update(request, now: now)
      })
  }

  public func delete(id: String, precondition: WritePrecondition) throws(WidgetError) {
    _ = try write(id: id, fromBucket: precondition != .none) { (table, now) throws(WidgetError) in
      try table.check(precondition, id: id)
      return try table.delete(id: id, now: now)
    }
  }

  /// Runs `transition` on a table holding only the widget's latest state,
  /// then writes the result if that state is still the bucket's; on a
  /// conflict reads the latest, and runs the transition (merge and
  /// validation) again. Returns the change with the bucket's revision, once
  /// the watch has applied it here (or after `appliedWaitMs` without it;
  /// at once when not `awaitingReplica`).
  ///
  /// - Parameter fromBucket: starts from the bucket's latest rather than
  ///   the replica's: a precondition is checked against what a client may
  ///   have read through another instance, which this replica may not
  ///   have applied yet. Without it, only an id the replica lacks is read
  ///   from the bucket.
  /// - Parameter known: the widget's latest state as the caller wrote it,
  ///   when the replica may not have it yet.
  func write(
    id: String?, fromBucket: Bool, startingFrom known: Widget? = nil, awaitingReplica: Bool = true,
    _ transition: (inout WidgetTable, Int64) throws(WidgetError) -> WidgetChange
  ) throws(WidgetError) -> WidgetChange {
    try requireLoaded()
    guard let id, WidgetID.isValid(id) else {
      // The transition reports the id with the request's other violations.
      var empty = WidgetTable()
      _ = try transition(&empty, clock())
      throw .invalid([WidgetID.violation(of: id)!])
    }
    let key = WidgetKey.key(for: id)
    // A widget this replica has not seen yet may have been written through
    // another instance a moment ago: the bucket says whether it exists.
    var current: Widget?
    if !fromBucket, let known = known ?? replica.widget(id: id) {
      current = known
    } else {
      current = try latest(key)
    }
    for attempt in 0..<Self.maxWriteAttempts {
      var table = WidgetTable(
        widgets: current.map { [$0] } ?? [], lastRevision: current?.revision ?? 0)
      let change = try transition(&table, clock())
      let outcome: KVWriteResult
      do throws(NATSError) {
        outcome = try send(change, key: key, replacing: current)
      } catch {
        throw WidgetError(error)
      }
      if case .written(let revision) = outcome {
        if awaitingReplica { replica.applied.wait(for: revision, timeoutMs: appliedWaitMs) }
        return change.renumbered(revision)
      }
      lostCompareAndSets.add(1, ordering: .relaxed)
      guard attempt + 1 < Self.maxWriteAttempts else { break }
      Self.pauseBeforeRetry(attempt)
      current = try latest(key)
    }
    throw .aborted(
      "widget \"\(id)\" kept changing: \(Self.maxWriteAttempts) writes in a row lost to other"
        + " writers; try again")
  }

  /// The write of `change` that succeeds only while the key's last revision
  /// is `current`'s (or the key is absent when `current` is nil).
  private func send(_ change: WidgetChange, key: String, replacing current: Widget?)
    throws(NATSError) -> KVWriteResult
  {
    switch change {
    case .upserted(let widget, _), .valueSet(let widget):
      let value = WidgetValue.encode(widget)
      guard let current else { return try bucket.create(key, value) }
      return try bucket.update(key, value, expectingRevision: current.revision)
    case .removed:
      // A removal comes only from a widget that exists.
      return try bucket.delete(key, expectingRevision: current?.revision ?? 0)
    }
  }

  /// The widget under `key` in the bucket now, or nil when absent.
  private func latest(_ key: String) throws(WidgetError) -> Widget? {
    let entry: KVEntry?
    do throws(NATSError) {
      entry = try bucket.get(key)
    } catch {
      throw WidgetError(error)
    }
    guard let entry else { return nil }
    switch WidgetValue.decode(entry.value, revision: entry.revision) {
    case .success(let widget): return widget
    case .failure(let error):
      throw .unavailable("the value of \(key) in NATS is not a widget: \(error.message)")
    }
  }

  /// A random pause that grows with the attempts (up to about 16 ms), so
  /// writers that collided do not collide again in step.
  private static func pauseBeforeRetry(_ attempt: Int) {
    let ceiling = UInt32(250) << min(attempt, 6)
    usleep(UInt32.random(in: 0...ceiling))
  }

  private func upserted(_ change: WidgetChange) -> (widget: Widget, created: Bool) {
    switch change {
    case .upserted(let widget, let created): (widget, created)
    case .valueSet(let widget): (widget, false)
    case .removed: preconditionFailure("an upsert produced \(change)")
    }
  }
}

extension WidgetChange {
  /// The same change under the revision the bucket gave it.
  fileprivate func renumbered(_ revision: UInt64) -> WidgetChange {
    switch self {
    case .upserted(var widget, let created):
      widget.revision = revision
      return .upserted(widget, created: created)
    case .valueSet(var widget):
      widget.revision = revision
      return .valueSet(widget)
    case .removed(let id, _):
      return .removed(id: id, revision: revision)
    }
  }
}
