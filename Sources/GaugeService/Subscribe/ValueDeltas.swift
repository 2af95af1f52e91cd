import GaugeDomain

/// A subscription's value-delta bookkeeping, boxed: only subscriptions
/// that ask for deltas pay for it, the rest carry one empty reference.
/// Used on the subscription's loop only.
final class ValueDeltas {
  private var tracker = ValueDeltaTracker()

  func queued(_ event: SharedEvent) {
    tracker.queued(id: event.widgetID, valueOnly: event.isValueOnly)
  }

  /// Whether `event` goes out as a value delta.
  func sendsDelta(_ event: SharedEvent) -> Bool {
    tracker.sendsDelta(id: event.widgetID, valueOnly: event.isValueOnly, removal: event.isRemoval)
  }

  func synced() { tracker.synced() }
  func reset() { tracker.reset() }
}
