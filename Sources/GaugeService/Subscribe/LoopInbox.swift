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
  }

  private let posted = Mutex(Posted())
  private let wake: @Sendable (@escaping @Sendable () -> Void) -> Void
  let subscriberCount = Atomic<Int>(0)
  private var subscribers: [ObjectIdentifier: any InboxSubscriber] = [:]
  /// The drained batch, kept between turns for its capacity.
  private var batch = Posted()

  init(wake: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
    self.wake = wake
  }

  func post(_ change: WidgetChange) {
    let id =
      switch change {
      case .upserted(let widget, _): widget.id
      case .removed(let id, _): id
      }
    let needsWake = posted.withLock { posted in
      if posted.latest.updateValue(change, forKey: id) == nil { posted.order.append(id) }
      guard !posted.wakeScheduled else { return false }
      posted.wakeScheduled = true
      return true
    }
    if needsWake { wake { [self] in drain() } }
  }

  /// Loop only.
  func attach(_ subscriber: any InboxSubscriber) {
    subscribers[ObjectIdentifier(subscriber)] = subscriber
    subscriberCount.add(1, ordering: .relaxed)
  }

  /// Loop only.
  func detach(_ subscriber: any InboxSubscriber) {
    if subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil {
      subscriberCount.subtract(1, ordering: .relaxed)
    }
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
    guard !subscribers.isEmpty else { return }
    for id in batch.order {
      guard let change = batch.latest[id] else { continue }
      let event = SharedEvent(change)
      for subscriber in subscribers.values where subscriber.filter.matches(id) {
        subscriber.offer(event)
      }
    }
    for subscriber in subscribers.values { subscriber.pump() }
  }
}

/// A subscriber as its loop's inbox sees it.
protocol InboxSubscriber: AnyObject {
  var filter: WidgetFilter { get }
  /// A change for a widget the filter matches; queue it, do not send yet.
  func offer(_ event: SharedEvent)
  /// The batch is over: send what the stream takes.
  func pump()
}
