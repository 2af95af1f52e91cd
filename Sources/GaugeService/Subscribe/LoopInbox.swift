import GRPCCore
import GRPCTransport
import GaugeDomain
import Synchronization

/// The changes waiting for the subscribers of one event loop. Producers
/// post from any thread and never wait for a subscriber: a post replaces
/// the waiting change of the same widget (latest wins) and wakes the loop
/// only when the inbox goes from empty to non-empty. The loop drains the
/// inbox in one batch and hands each change to its local subscribers.
final class LoopInbox: @unchecked Sendable {
  // @unchecked Sendable: `posted` is guarded by its mutex and
  // `subscriberCount` is atomic; `subscribers` is touched only on the loop
  // that owns this inbox (attach, detach and drain all run there).
  private struct Posted {
    var latest: [String: WidgetChange] = [:]
    var order: [String] = []
    var wakeScheduled = false

    mutating func replaceLatest(with change: WidgetChange, id: String) {
      if latest.updateValue(change, forKey: id) == nil { order.append(id) }
    }

    /// True when the loop must be woken: the first post since a drain.
    mutating func scheduleWake() -> Bool {
      guard !wakeScheduled else { return false }
      wakeScheduled = true
      return true
    }
  }

  private let posted = Mutex(Posted())
  private let executor: any LoopExecutor
  let subscriberCount = Atomic<Int>(0)
  /// Subscribers grouped by filter: dashboards watching the same widgets
  /// share a bucket, so a change is matched once per distinct filter, not
  /// once per subscriber.
  private var buckets: [WidgetFilter: FilterBucket] = [:]
  /// The drained batch, kept between turns for its capacity.
  private var batch = Posted()
  /// Subscribers that queued an event this batch instead of sending it.
  private var backlogged: [any InboxSubscriber] = []
  private var backloggedIDs: Set<ObjectIdentifier> = []

  private let tally: SubscriberTally

  /// How many connections may wait to write while the batch's last change
  /// goes out (`LoopExecutor.writeQueuedOutput`). Writing them then, rather
  /// than after the whole batch, finds what the offers touched of each
  /// connection (its session, stream and socket) still in the cache: with
  /// 10,000 connections, one subscription each, it cut gauged's CPU per
  /// delivery from 10.8 to 9.6 µs (medians of six alternating runs). A
  /// connection's subscriptions usually arrive together and sit together
  /// in a bucket, so a connection carrying many of them still writes
  /// about once per batch.
  static let connectionsWaitingToWrite = 32
  /// How many offers go between checks of the above.
  static let offersBetweenWriteChecks = 16

  init(tally: SubscriberTally, executor: any LoopExecutor) {
    self.tally = tally
    self.executor = executor
  }

  func post(_ change: WidgetChange) {
    post { $0.replaceLatest(with: change, id: change.widgetID) }
  }

  /// `post` for each change, in order, under one lock. Of a run of changes
  /// to one widget (a producer's burst to one gauge) only the last is
  /// posted: the earlier ones would be replaced before any drain.
  func post(batch changes: [WidgetChange]) {
    post { posted in
      var index = changes.startIndex
      while index < changes.endIndex {
        let id = changes[index].widgetID
        var last = index
        while last + 1 < changes.endIndex, changes[last + 1].widgetID == id { last += 1 }
        posted.replaceLatest(with: changes[last], id: id)
        index = last + 1
      }
    }
  }

  /// Records under the lock, and wakes the loop when this is the first post
  /// since its last drain.
  private func post(_ record: (inout Posted) -> Void) {
    let needsWake = posted.withLock { posted in
      record(&posted)
      return posted.scheduleWake()
    }
    if needsWake { executor.execute { [self] in drain() } }
  }

  /// Loop only.
  func attach(_ subscriber: any InboxSubscriber) {
    let bucket = buckets[subscriber.filter] ?? FilterBucket(filter: subscriber.filter)
    buckets[subscriber.filter] = bucket
    // Equal filters: the subscriber keeps the bucket's copy of the ids, so
    // ten thousand dashboards watching one widget hold one set, not ten
    // thousand.
    subscriber.filter = bucket.filter
    if bucket.add(subscriber) {
      subscriberCount.add(1, ordering: .relaxed)
      tally.count.add(1, ordering: .relaxed)
    }
  }

  /// Loop only.
  func detach(_ subscriber: any InboxSubscriber) {
    guard let bucket = buckets[subscriber.filter], bucket.remove(subscriber) else { return }
    subscriberCount.subtract(1, ordering: .relaxed)
    tally.count.subtract(1, ordering: .relaxed)
    if bucket.isEmpty { buckets[subscriber.filter] = nil }
  }

  private func drain() {
    posted.withLock { posted in
      swap(&posted, &batch)
      posted.wakeScheduled = false
    }
    defer {
      batch.latest.removeAll(keepingCapacity: true)
      batch.order.removeAll(keepingCapacity: true)
    }
    guard !buckets.isEmpty else { return }
    var offersSinceWriteCheck = 0
    for (position, id) in batch.order.enumerated() {
      guard let change = batch.latest[id] else { continue }
      let event = SharedEvent(change)
      // Before the last change a connection written early could be
      // offered more of this batch, and would write twice.
      let writesEarly = position == batch.order.count - 1
      for bucket in buckets.values where bucket.filter.matches(id) {
        for subscriber in bucket.subscribers {
          if !subscriber.offer(event),
            backloggedIDs.insert(ObjectIdentifier(subscriber)).inserted
          {
            backlogged.append(subscriber)
          }
          guard writesEarly else { continue }
          offersSinceWriteCheck += 1
          if offersSinceWriteCheck == Self.offersBetweenWriteChecks {
            offersSinceWriteCheck = 0
            // A connection may close as it writes: its subscribers leave
            // their buckets, and this loop goes on over copies of both.
            executor.writeQueuedOutput(ifMoreThan: Self.connectionsWaitingToWrite)
          }
        }
      }
    }
    // Only subscribers that could not take an event at once have anything
    // to pump.
    for subscriber in backlogged { subscriber.pump() }
    backlogged.removeAll(keepingCapacity: true)
    backloggedIDs.removeAll(keepingCapacity: true)
  }
}

/// The subscribers of one loop that share a filter, in an array for cheap
/// iteration; each subscriber keeps its own slot for O(1) removal (a table
/// of slots here cost more per subscriber than the slot itself).
private final class FilterBucket {
  let filter: WidgetFilter
  private(set) var subscribers: [any InboxSubscriber] = []

  init(filter: WidgetFilter) {
    self.filter = filter
  }

  var isEmpty: Bool { subscribers.isEmpty }

  func add(_ subscriber: any InboxSubscriber) -> Bool {
    guard !holds(subscriber) else { return false }
    subscriber.inboxSlot = Int32(subscribers.count)
    subscribers.append(subscriber)
    return true
  }

  func remove(_ subscriber: any InboxSubscriber) -> Bool {
    guard holds(subscriber) else { return false }
    let slot = Int(subscriber.inboxSlot)
    subscriber.inboxSlot = -1
    let last = subscribers.removeLast()
    if slot < subscribers.count {
      subscribers[slot] = last
      last.inboxSlot = Int32(slot)
    }
    return true
  }

  private func holds(_ subscriber: any InboxSubscriber) -> Bool {
    let slot = Int(subscriber.inboxSlot)
    return slot >= 0 && slot < subscribers.count && subscribers[slot] === subscriber
  }
}

/// A subscriber as its loop's inbox sees it.
protocol InboxSubscriber: AnyObject {
  var filter: WidgetFilter { get set }
  /// Where its bucket keeps it; -1 while in none. Set by the inbox only.
  var inboxSlot: Int32 { get set }
  /// A change for a widget the filter matches: sent at once (true) when
  /// the subscriber keeps up, otherwise queued (false) for `pump`.
  func offer(_ event: SharedEvent) -> Bool
  /// The batch is over: send what the stream takes of the queue.
  func pump()
}
