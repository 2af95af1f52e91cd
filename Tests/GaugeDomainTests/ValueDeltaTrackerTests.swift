import GaugeDomain
import Testing

/// Which events of a delta subscription go as value deltas: never before
/// `synced`, never a widget's first after it, never one that stands for a
/// coalesced change beyond the value.
@Suite struct ValueDeltaTrackerTests {
  /// The tracker in a box, so that expectations can call it.
  final class Tracker {
    private var tracker = ValueDeltaTracker()

    func sends(_ id: String, valueOnly: Bool, removal: Bool) -> Bool {
      tracker.sendsDelta(id: id, valueOnly: valueOnly, removal: removal)
    }

    func queued(id: String, valueOnly: Bool) { tracker.queued(id: id, valueOnly: valueOnly) }
    func synced() { tracker.synced() }
    func reset() { tracker.reset() }
  }

  @Test func beforeSyncedEverythingIsWhole() {
    let tracker = Tracker()
    #expect(!tracker.sends("a", valueOnly: false, removal: false))
    #expect(!tracker.sends("a", valueOnly: true, removal: false))
  }

  @Test func afterSyncedTheFirstEventOfEachWidgetIsWholeThenValuesAreDeltas() {
    let tracker = Tracker()
    // The snapshot's events do not count: a resumed stream may have none.
    _ = tracker.sends("a", valueOnly: false, removal: false)
    tracker.synced()
    #expect(!tracker.sends("a", valueOnly: true, removal: false))
    #expect(tracker.sends("a", valueOnly: true, removal: false))
    #expect(!tracker.sends("b", valueOnly: true, removal: false))
    #expect(tracker.sends("b", valueOnly: true, removal: false))
    // A change beyond the value is whole, and values after it are deltas.
    #expect(!tracker.sends("a", valueOnly: false, removal: false))
    #expect(tracker.sends("a", valueOnly: true, removal: false))
  }

  @Test func aValueThatReplacedAWaitingFullChangeIsWhole() {
    let tracker = Tracker()
    tracker.synced()
    _ = tracker.sends("a", valueOnly: false, removal: false)
    // A label change waits, then a value replaces it in the queue.
    tracker.queued(id: "a", valueOnly: false)
    tracker.queued(id: "a", valueOnly: true)
    #expect(!tracker.sends("a", valueOnly: true, removal: false))
    #expect(tracker.sends("a", valueOnly: true, removal: false))
  }

  @Test func aRemovedWidgetComesBackWhole() {
    let tracker = Tracker()
    tracker.synced()
    _ = tracker.sends("a", valueOnly: false, removal: false)
    #expect(!tracker.sends("a", valueOnly: false, removal: true))
    #expect(!tracker.sends("a", valueOnly: true, removal: false))
  }

  @Test func aResetStartsOverUntilTheNextSynced() {
    let tracker = Tracker()
    tracker.synced()
    _ = tracker.sends("a", valueOnly: false, removal: false)
    tracker.reset()
    #expect(!tracker.sends("a", valueOnly: true, removal: false))
    tracker.synced()
    #expect(!tracker.sends("a", valueOnly: true, removal: false))
    #expect(tracker.sends("a", valueOnly: true, removal: false))
  }
}
