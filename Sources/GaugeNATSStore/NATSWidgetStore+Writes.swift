import GaugeDomain
import GaugeMetrics
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
  /// the watch has applied it here (or after `appliedWaitMs` without it).
  ///
  /// - Parameter fromBucket: starts from the bucket's latest rather than
  ///   the replica's: a precondition is checked against what a client may
  ///   have read through another instance, which this replica may not
  ///   have applied yet. Without it, only an id the replica lacks is read
  ///   from the bucket.
  func write(
    id: String?, fromBucket: Bool,
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
    if !fromBucket, let known = replica.widget(id: id) {
      current = known
    } else {
      current = try bucket.widget(id)
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
        replica.applied.wait(for: revision, timeoutMs: appliedWaitMs)
        return change.renumbered(revision)
      }
      lostCompareAndSets.add(1, ordering: .relaxed)
      guard attempt + 1 < Self.maxWriteAttempts else { break }
      Self.pauseBeforeRetry(attempt)
      current = try bucket.widget(id)
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
    let startedAt = NanosecondClock.now()
    defer { putLatency.observe(since: startedAt) }
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
