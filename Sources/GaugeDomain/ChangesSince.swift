/// The answer to "what changed after revision R", for resuming subscribers.
public enum ChangesSince: Sendable, Equatable {
  /// Widgets whose revision is after R (in id order) and removals after R
  /// (in revision order); complete, as of `lastRevision`.
  case changes(upserts: [Widget], removals: [Tombstone], lastRevision: UInt64)
  /// R is from before what the server remembers, or from another server's
  /// life: only a full snapshot is a correct answer.
  case unknown
}
