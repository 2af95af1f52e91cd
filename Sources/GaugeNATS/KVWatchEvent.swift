/// Where a watch of all keys begins.
public enum KVWatchStart: Sendable, Equatable {
  /// Every change whose revision is at least this one, then live changes.
  /// The bucket keeps only the last `history` revisions of each key, so
  /// older revisions of a key that changed again are skipped: what arrives
  /// brings a reader to the current state, as gauged's own resumes do.
  case revision(UInt64)
  /// Only changes made after the watch starts.
  case updatesOnly
}

/// Why a watch cannot prove that it delivers everything after the revision
/// it was asked for.
public enum KVContinuityLoss: Sendable, Equatable {
  /// The bucket no longer holds anything before `firstAvailable` (history
  /// purged or dropped by its limits), and the watch was asked to start at
  /// `requested`, which is older.
  case historyPurged(requested: UInt64, firstAvailable: UInt64)
  /// The watch was asked to start after the bucket's last revision plus
  /// one: the revision comes from another bucket, or one that was deleted
  /// and made again.
  case revisionAhead(requested: UInt64, lastRevision: UInt64)
}

/// What a watch delivers, in order.
public enum KVWatchEvent: Sendable, Equatable {
  /// Sent first, before any change, when the watch cannot prove continuity
  /// from where it was asked to start. The changes that follow are what the
  /// bucket still holds; a reader that needs every change must start again
  /// from a full snapshot.
  case continuityLost(KVContinuityLoss)
  case change(KVChange)
  /// Every change that existed when the watch started has been delivered
  /// (at once for `updatesOnly`, or when there was nothing to catch up on).
  /// Sent once.
  case caughtUp
}
