import GaugeDomain

/// One gauge.v1.WidgetEvent of a Subscribe stream.
public enum WidgetEventWire: Sendable, Equatable {
  /// The event's revision is the widget's.
  case upsert(Widget)
  case removed(id: String, revision: UInt64)
  /// The snapshot or catch-up is complete; what follows is live.
  case synced(revision: UInt64)
  /// The requested revision cannot be resumed from; a full snapshot follows.
  case reset(revision: UInt64)
}
