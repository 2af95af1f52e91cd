/// One event of a `WidgetSubscription`.
public enum SubscriptionEvent: Sendable, Equatable {
  /// A widget of the initial snapshot (or of the snapshot after a
  /// `reset`), before `synced`.
  case snapshot(Widget)
  /// The snapshot or catch-up is complete: what follows is live, and a
  /// reconnect resumes from `revision`.
  case synced(revision: UInt64)
  /// A widget was created or changed.
  case upsert(Widget)
  /// Widget `id` was deleted at `revision`.
  case removed(id: String, revision: UInt64)
  /// The server could not resume from the last revision (it restarted
  /// without its data, or the changes are no longer kept): forget every
  /// widget; a whole new snapshot follows, then `synced`.
  case reset(revision: UInt64)
}
