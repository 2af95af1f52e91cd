import GaugeDomain
import GaugeNATS

extension NATSKeyValueBucket {
  /// The widget `id` in the bucket now, or nil when absent: for writes that
  /// must start from the latest state, which the replica may not have yet.
  func widget(_ id: String) throws(WidgetError) -> Widget? {
    let key = WidgetKey.key(for: id)
    let entry: KVEntry?
    do throws(NATSError) {
      entry = try get(key)
    } catch {
      throw WidgetError(error)
    }
    guard let entry else { return nil }
    switch WidgetValue.decode(entry.value, revision: entry.revision) {
    case .success(let widget): return widget
    case .failure(let error):
      throw .unavailable("the value of \(key) in NATS is not a widget: \(error.message)")
    }
  }
}
