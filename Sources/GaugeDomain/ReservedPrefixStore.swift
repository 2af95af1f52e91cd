/// The store as clients see it when the server keeps widgets of its own
/// under `prefix`: reads pass through, so those widgets are ordinary to
/// readers, and every write to an id under the prefix is refused with
/// `.readOnly` before the store sees it. The server writes its widgets
/// through the store it wraps.
public struct ReservedPrefixStore: WriteGuardedStore {
  public let base: any WidgetStore
  public let prefix: String

  /// The prefix's first byte; nil when the prefix is empty.
  private let firstByte: UInt8?

  public init(_ base: any WidgetStore, prefix: String) {
    self.base = base
    self.prefix = prefix
    self.firstByte = prefix.utf8.first
  }

  public func writeRefusal(for id: String) -> WidgetError? {
    isReserved(id) ? .readOnly(id: id, prefix: prefix) : nil
  }

  private func isReserved(_ id: String) -> Bool {
    guard let firstByte else { return true }
    // Checked for every value a producer publishes: most ids differ at
    // their first byte, and the generic comparison of the views cost more
    // than applying the value.
    guard id.utf8.first == firstByte else { return false }
    return id.utf8.starts(with: prefix.utf8)
  }
}
