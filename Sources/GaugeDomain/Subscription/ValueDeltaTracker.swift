/// Which events of a subscription that asked for value deltas may go as
/// deltas. A delta is only meaningful to a reader that has the widget
/// whole: everything before `synced` is whole, the first event for each
/// widget after it is whole, and so is an event that replaced, while it
/// waited, a change that touched more than the value (coalescing keeps
/// only the latest event, which must then carry all of it).
public struct ValueDeltaTracker: Sendable {
  private var live = false
  /// Widgets sent whole since the last `synced`.
  private var sentWhole: Set<String> = []
  /// Widgets whose waiting event may stand for a change beyond the value.
  private var owedWhole: Set<String> = []

  public init() {}

  /// An event waits in the queue rather than going out at once.
  public mutating func queued(id: String, valueOnly: Bool) {
    if !valueOnly, live { owedWhole.insert(id) }
  }

  /// Whether the event about to be sent goes as a value delta; notes what
  /// the reader will have once it is sent.
  public mutating func sendsDelta(id: String, valueOnly: Bool, removal: Bool) -> Bool {
    guard live else { return false }
    if removal {
      sentWhole.remove(id)
      owedWhole.remove(id)
      return false
    }
    if valueOnly, sentWhole.contains(id), !owedWhole.contains(id) { return true }
    sentWhole.insert(id)
    owedWhole.remove(id)
    return false
  }

  /// `synced` went out: live events follow, each widget's first one whole.
  public mutating func synced() {
    live = true
    sentWhole.removeAll()
    owedWhole.removeAll()
  }

  /// `reset` went out: a snapshot, whole, follows.
  public mutating func reset() {
    live = false
    sentWhole.removeAll()
    owedWhole.removeAll()
  }
}
