/// Where a widget lives in the bucket: one key per widget, `w.<id>`. Widget
/// ids (letters, digits, `_` and `-`) are all in NATS's key alphabet, so an
/// id needs no escaping; the prefix leaves room for keys that are not
/// widgets.
enum WidgetKey {
  static let prefix = "w."

  static func key(for id: String) -> String { prefix + id }

  /// The widget id of `key`, or nil when the key is not a widget's.
  static func id(of key: String) -> String? {
    guard key.hasPrefix(prefix) else { return nil }
    return String(key.dropFirst(prefix.count))
  }
}
