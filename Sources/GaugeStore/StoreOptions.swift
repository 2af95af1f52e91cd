import GaugeDomain

/// When a write may be acknowledged.
public enum Durability: String, Sendable, CaseIterable {
  /// Once the transaction holding it has committed with `synchronous=FULL`.
  case strict
  /// Once applied in memory; the writer commits within the flush interval.
  case relaxed
}

public struct StoreOptions: Sendable {
  public var durability: Durability
  /// Relaxed mode: how long the writer gathers changes before committing.
  public var flushIntervalMs: Int
  /// Removals older than this are forgotten (their resume points reset).
  public var tombstoneRetentionMs: Int64
  /// Unix microseconds: tombstone ages, and where the revision counter
  /// restarts after an unclean stop.
  public var clock: @Sendable () -> Int64
  /// Told, one line at a time, when the disk starts failing (`true`) and
  /// when it works again (`false`).
  public var log: @Sendable (_ failing: Bool, _ message: String) -> Void

  public init(
    durability: Durability = .relaxed, flushIntervalMs: Int = 10,
    tombstoneRetentionMs: Int64 = 24 * 3600 * 1000,
    clock: @escaping @Sendable () -> Int64 = WallClock.unixMicroseconds,
    log: @escaping @Sendable (_ failing: Bool, _ message: String) -> Void = { _, _ in }
  ) {
    self.durability = durability
    self.flushIntervalMs = flushIntervalMs
    self.tombstoneRetentionMs = tombstoneRetentionMs
    self.clock = clock
    self.log = log
  }
}
