import GaugeDomain

/// One gauge.v1.WidgetEvent of a Subscribe stream.
public enum WidgetEventWire: Sendable, Equatable {
  /// The event's revision is the widget's.
  case upsert(Widget)
  case removed(id: String, revision: UInt64)
  /// A new value for a widget the subscriber has whole (`ValueDelta`): only
  /// for subscriptions that asked for value deltas.
  case value(id: String, value: Double, updatedAtMs: Int64, revision: UInt64)
  /// The snapshot or catch-up is complete; what follows is live.
  case synced(revision: UInt64)
  /// The requested revision cannot be resumed from; a full snapshot follows.
  case reset(revision: UInt64)
}
