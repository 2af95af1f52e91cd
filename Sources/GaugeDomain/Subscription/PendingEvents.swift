/// Events waiting for one subscriber, at most one per widget: a newer event
/// for a widget replaces the waiting one in place (latest wins), so memory
/// is bounded by the number of widgets, not the number of changes.
@usableFromInline struct PendingEvents<Event: SubscriptionEvent> {
  @inlinable init() {}

  @usableFromInline var waiting: [String: Event] = [:]
  /// Widget ids in arrival order; an id leaves when its event is taken.
  @usableFromInline var order: [String] = []
  @usableFromInline var head = 0

  @inlinable var isEmpty: Bool { waiting.isEmpty }

  @inlinable func contains(_ id: String) -> Bool { waiting[id] != nil }
  @inlinable var count: Int { waiting.count }

  /// Keeps the newer of the waiting and the offered event.
  /// True when the widget already had an event waiting: one of the two
  /// will never be sent (coalesced).
  @discardableResult
  @inlinable mutating func offer(_ event: Event) -> Bool {
    if let current = waiting[event.widgetID] {
      if event.revision > current.revision { waiting[event.widgetID] = event }
      return true
    }
    waiting[event.widgetID] = event
    order.append(event.widgetID)
    return false
  }

  /// The oldest waiting event that `isDue` accepts, taken out of the queue.
  @inlinable mutating func takeFirst(where isDue: (Event) -> Bool) -> Event? {
    var index = head
    while index < order.count {
      let id = order[index]
      if let event = waiting[id], isDue(event) {
        waiting[id] = nil
        if index == head {
          head += 1
        } else {
          order.remove(at: index)
        }
        compact()
        return event
      }
      index += 1
    }
    return nil
  }

  /// Every waiting event, in arrival order.
  @inlinable var events: [Event] {
    order[head...].compactMap { waiting[$0] }
  }

  @inlinable mutating func compact() {
    if head == order.count {
      order.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 256, head * 2 > order.count {
      order.removeFirst(head)
      head = 0
    }
  }
}
