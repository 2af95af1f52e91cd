/// A store seen through a prefix-limited token: ids outside its reach are
/// refused on every read and write (`WidgetError.outsideReach`; writes
/// through `WriteGuardedStore`), listings and snapshots hold only the
/// widgets inside. Made only for such tokens; every other caller talks to
/// the store itself.
public struct ReachLimitedWidgetStore: WriteGuardedStore {
  public let base: any WidgetStore
  public let reach: WidgetReach

  public init(base: any WidgetStore, reach: WidgetReach) {
    self.base = base
    self.reach = reach
  }

  public func writeRefusal(for id: String) -> WidgetError? {
    reach.allows(id) ? nil : .outsideReach(id: id, prefix: reach.prefix)
  }

  /// Reads outside the reach are refused as writes are.
  public func get(id: String) throws(WidgetError) -> Widget {
    if let refusal = writeRefusal(for: id) { throw refusal }
    return try base.get(id: id)
  }

  /// A listing wider than the reach is cut down to it; one beside it is refused.
  public func list(_ query: ListQuery) throws(WidgetError) -> WidgetPage {
    guard let prefix = reach.narrow(prefix: query.idPrefix) else {
      throw .outsideReach(id: query.idPrefix, prefix: reach.prefix)
    }
    var narrowed = query
    narrowed.idPrefix = prefix
    return try base.list(narrowed)
  }

  public func snapshot() -> (widgets: [Widget], lastRevision: UInt64) {
    let (widgets, lastRevision) = base.snapshot()
    return (widgets.filter { reach.allows($0.id) }, lastRevision)
  }

  public func changes(since revision: UInt64) -> ChangesSince {
    switch base.changes(since: revision) {
    case .unknown: return .unknown
    case .changes(let upserts, let removals, let lastRevision):
      return .changes(
        upserts: upserts.filter { reach.allows($0.id) },
        removals: removals.filter { reach.allows($0.id) }, lastRevision: lastRevision)
    }
  }
}
