import GaugeDomain

/// What every Subscribe handler of a service shares, in one reference.
final class SubscriptionContext: Sendable {
  let store: any WidgetStore
  let hub: ChangeHub
  /// The widgets its subscribers may watch: a prefix-limited token's calls
  /// get a context of their own, so that a handler, ten thousand of which
  /// may sit idle, carries no field for it.
  let reach: WidgetReach

  init(store: any WidgetStore, hub: ChangeHub, reach: WidgetReach = .everything) {
    self.store = store
    self.hub = hub
    self.reach = reach
  }

  /// This context for calls that see only `reach`.
  func limited(to reach: WidgetReach) -> SubscriptionContext {
    if case .everything = reach { return self }
    return SubscriptionContext(
      store: ReachLimitedWidgetStore(base: store, reach: reach), hub: hub, reach: reach)
  }

  /// The queue a new subscription starts from: the changes since
  /// `sinceRevision` when the store can tell them, otherwise a reset and a
  /// snapshot; without `sinceRevision`, a snapshot (or nothing, when
  /// `includeSnapshot` is false). Attach to the hub before calling: a change
  /// made in between is then both here and offered live, and the queue
  /// drops the live copy by revision.
  func startQueue(
    filter: WidgetFilter, sinceRevision: UInt64?, includeSnapshot: Bool, minIntervalMs: Int64
  ) -> SubscriberQueue<SharedEvent> {
    var queue = SubscriberQueue<SharedEvent>(minIntervalMs: minIntervalMs)
    func snapshotEvents(_ widgets: [Widget]) -> [SharedEvent] {
      widgets.filter { filter.matches($0.id) }.map { SharedEvent(widget: $0) }
    }
    if let since = sinceRevision {
      if case .changes(let upserts, let removals, let lastRevision) = store.changes(since: since) {
        var events = upserts.filter { filter.matches($0.id) }.map { SharedEvent(widget: $0) }
        events += removals.filter { filter.matches($0.id) }.map {
          SharedEvent(.removed(id: $0.id, revision: $0.revision))
        }
        queue.begin(resetFirst: false, initial: events, revision: lastRevision)
        return queue
      }
      // The server cannot tell what changed since then: start over.
      let (widgets, lastRevision) = store.snapshot()
      queue.begin(resetFirst: true, initial: snapshotEvents(widgets), revision: lastRevision)
      return queue
    }
    let (widgets, lastRevision) = store.snapshot()
    queue.begin(
      resetFirst: false, initial: includeSnapshot ? snapshotEvents(widgets) : [],
      revision: lastRevision)
    return queue
  }
}
