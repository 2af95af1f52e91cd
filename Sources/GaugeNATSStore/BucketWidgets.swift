import GaugeDomain
import GaugeNATS

/// Widgets read from or written to a bucket directly, with no replica
/// (`gauged export` and `gauged import`).
public enum BucketWidgets {
  /// Every widget in the bucket, in id order, each with its revision.
  /// Values under widget keys that are not widgets are left out, as the
  /// replica leaves them out.
  public static func read(_ bucket: NATSKeyValueBucket) throws(NATSError) -> [Widget] {
    try bucket.entries().compactMap { entry -> Widget? in
      guard let id = WidgetKey.id(of: entry.key),
        case .success(let widget) = WidgetValue.decode(entry.value, revision: entry.revision),
        widget.id == id
      else { return nil }
      return widget
    }.sorted { $0.id < $1.id }
  }

  /// Puts `widget` as it is (timestamps and stale flag included), whatever
  /// the bucket holds under its id; returns its new revision.
  public static func write(_ widget: Widget, to bucket: NATSKeyValueBucket) throws(NATSError)
    -> UInt64
  {
    try bucket.put(WidgetKey.key(for: widget.id), WidgetValue.encode(widget))
  }
}
