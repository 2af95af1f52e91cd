/// Something a subscriber can be sent about one widget.
public protocol SubscriptionEvent {
  var widgetID: String { get }
  var revision: UInt64 { get }
  /// The widget is gone: nothing more about it needs remembering.
  var isRemoval: Bool { get }
}

/// What one subscriber is owed, in the order the stream promises: an
/// optional reset, the initial events (snapshot or catch-up), one synced
/// marker, then live events. Live events coalesce per widget (latest wins);
/// per widget, revisions only increase (live events arrive in revision
/// order and each is newer than the initial state); with a minimum
/// interval, a widget is sent at most once per interval and always ends on
/// its latest state.
// The queue is generic and used from other modules on every event of every
// subscriber: its members are inlinable so that callers get specialised
// code instead of generic dispatch through witness tables.
public struct SubscriberQueue<Event: SubscriptionEvent> {
  public enum Output {
    case reset(revision: UInt64)
    case event(Event)
    case synced(revision: UInt64)
  }

  @usableFromInline var reset: UInt64?
  @usableFromInline var initial: PendingEvents<Event>
  @usableFromInline var synced: UInt64?
  @usableFromInline var live = PendingEvents<Event>()
  /// Live events at or below this revision are already in the initial set.
  @usableFromInline var floor: UInt64 = 0
  @usableFromInline var lastSentAtMs: [String: Int64] = [:]
  /// At most one event per widget per this many milliseconds (0: no limit).
  public let minIntervalMs: Int64

  @inlinable public init(minIntervalMs: Int64 = 0) {
    self.minIntervalMs = max(0, minIntervalMs)
    self.initial = PendingEvents()
  }

  /// Starts the stream: `initial` reflects every change up to `revision`.
  @inlinable public mutating func begin(resetFirst: Bool, initial events: [Event], revision: UInt64)
  {
    reset = resetFirst ? revision : nil
    for event in events { initial.offer(event) }
    synced = revision
    floor = revision
  }

  /// Whether the event can go out at once, skipping the queue: nothing is
  /// owed before it and no interval holds it back. Otherwise the caller
  /// offers it. A Bool, not the event: handing the event back was a retain
  /// and a release per subscriber and event.
  @inlinable public func sendsDirect(_ event: Event) -> Bool {
    minIntervalMs == 0 && event.revision > floor && isEmpty
  }

  /// A change made after the subscription was attached. True when it
  /// coalesced with an event of the same widget still waiting, so one of
  /// the two will never be sent.
  @discardableResult
  @inlinable public mutating func offer(_ event: Event) -> Bool {
    guard event.revision > floor else { return false }
    if synced != nil, initial.contains(event.widgetID) {
      // Still owed its initial state: send the newer one in its place.
      return initial.offer(event)
    } else {
      return live.offer(event)
    }
  }

  @inlinable public var isEmpty: Bool {
    reset == nil && initial.isEmpty && synced == nil && live.isEmpty
  }

  /// Events waiting, for memory accounting and tests.
  @inlinable public var waitingCount: Int { initial.count + live.count }

  /// The next thing to send at `nowMs` (a monotonic clock), or nil when
  /// nothing is due.
  @inlinable public mutating func next(nowMs: Int64) -> Output? {
    if let revision = reset {
      reset = nil
      return .reset(revision: revision)
    }
    if synced != nil {
      if let event = initial.takeFirst(where: { _ in true }) {
        return deliver(event, nowMs: nowMs)
      }
      let revision = synced!
      synced = nil
      // Sized for the snapshot and never used again: a long-lived idle
      // subscription should not keep it.
      initial = PendingEvents()
      return .synced(revision: revision)
    }
    guard let due = takeDueLiveEvent(nowMs: nowMs) else { return nil }
    return deliver(due, nowMs: nowMs)
  }

  /// When the earliest event held back by the minimum interval becomes due.
  @inlinable public func nextDueMs(nowMs: Int64) -> Int64? {
    guard minIntervalMs > 0, reset == nil, synced == nil else { return nil }
    return live.events.compactMap { event -> Int64? in
      guard let sentAt = lastSentAtMs[event.widgetID] else { return nowMs }
      return sentAt + minIntervalMs
    }.min()
  }

  @inlinable mutating func takeDueLiveEvent(nowMs: Int64) -> Event? {
    guard minIntervalMs > 0 else { return live.takeFirst { _ in true } }
    // A local copy keeps the closure from reading self while `live` is
    // being modified; it is released before `deliver` writes the original.
    let interval = minIntervalMs
    let sentAt = lastSentAtMs
    return live.takeFirst { event in
      guard let last = sentAt[event.widgetID] else { return true }
      return nowMs - last >= interval
    }
  }

  @inlinable mutating func deliver(_ event: Event, nowMs: Int64) -> Output {
    if minIntervalMs > 0 {
      lastSentAtMs[event.widgetID] = event.isRemoval ? nil : nowMs
    }
    return .event(event)
  }
}

extension SubscriberQueue.Output: Equatable where Event: Equatable {}
