import GaugeDomain
import GaugeNATS

extension NATSWidgetStore {
  /// How many due widgets one call marks at most: each is a round trip on
  /// the calling thread (the stale timer's loop).
  static let staleChunk = 64

  /// Marks stale, through the bucket, the widgets whose `staleAfterMs` ran
  /// out; the watch then brings the mark to every instance. Every instance
  /// tries: the mark is a compare-and-set on the revision the deadline came
  /// from, so one of them writes it, and losing means another instance
  /// marked it or a write came (which sets a new deadline). A mark that
  /// failed for NATS is tried again on a later call. Returns how many this
  /// call marked.
  @discardableResult
  public func markStaleWidgets() -> Int {
    var marked = 0
    for widget in replica.takeDueStaleWidgets(now: clock(), limit: Self.staleChunk) {
      var stale = widget
      stale.stale = true
      do throws(NATSError) {
        let outcome = try bucket.update(
          WidgetKey.key(for: widget.id), WidgetValue.encode(stale),
          expectingRevision: widget.revision)
        if case .written = outcome { marked += 1 }
      } catch {
        replica.recheckStale(id: widget.id)
      }
    }
    return marked
  }
}
