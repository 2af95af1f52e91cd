/// A removal remembered so that a subscriber resuming from an older
/// revision can be told the widget is gone.
public struct Tombstone: Sendable, Equatable {
  public var id: String
  public var revision: UInt64
  public var removedAtMs: Int64

  public init(id: String, revision: UInt64, removedAtMs: Int64) {
    self.id = id
    self.revision = revision
    self.removedAtMs = removedAtMs
  }
}

/// Recent removals in revision order, and the horizon below which the log
/// can no longer answer "what changed since R".
struct TombstoneLog: Sendable {
  /// Removals in revision order; entries superseded by a re-creation are
  /// dropped lazily (their id no longer maps to their revision).
  private var entries: [Tombstone] = []
  private var head = 0
  private var latestByID: [String: UInt64] = [:]
  /// A removal at or below this revision may have been forgotten.
  private(set) var horizon: UInt64

  init(_ tombstones: [Tombstone], horizon: UInt64) {
    self.horizon = horizon
    for tombstone in tombstones.sorted(by: { $0.revision < $1.revision }) {
      record(tombstone)
    }
  }

  var count: Int { latestByID.count }

  /// Live tombstones in revision order.
  var all: [Tombstone] {
    entries[head...].filter { latestByID[$0.id] == $0.revision }
  }

  mutating func record(_ tombstone: Tombstone) {
    entries.append(tombstone)
    latestByID[tombstone.id] = tombstone.revision
  }

  /// The id exists again: its removal no longer needs reporting.
  mutating func forget(id: String) {
    latestByID[id] = nil
  }

  mutating func raiseHorizon(to revision: UInt64) {
    horizon = max(horizon, revision)
  }

  /// Removals after `revision`, in revision order.
  func removals(after revision: UInt64) -> [Tombstone] {
    var low = head
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].revision <= revision { low = middle + 1 } else { high = middle }
    }
    return entries[low...].filter { latestByID[$0.id] == $0.revision }
  }

  /// Drops removals made before `cutoffMs` and raises the horizon past them.
  /// Returns how many were dropped.
  @discardableResult
  mutating func expire(removedBefore cutoffMs: Int64) -> Int {
    var dropped = 0
    while head < entries.count, entries[head].removedAtMs < cutoffMs {
      let entry = entries[head]
      horizon = max(horizon, entry.revision)
      if latestByID[entry.id] == entry.revision {
        latestByID[entry.id] = nil
        dropped += 1
      }
      head += 1
    }
    if head > 1024, head * 2 > entries.count {
      entries.removeFirst(head)
      head = 0
    }
    return dropped
  }
}
