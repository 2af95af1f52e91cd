/// Which widgets a subscriber watches: listed ids, an id prefix, both (a
/// widget matching either is watched), or everything when neither is given.
public struct WidgetFilter: Sendable, Hashable {
  public let ids: Set<String>
  public let idPrefix: String

  public init(ids: [String] = [], idPrefix: String = "") {
    self.ids = Set(ids)
    self.idPrefix = idPrefix
  }

  public var watchesEverything: Bool { ids.isEmpty && idPrefix.isEmpty }

  public func matches(_ id: String) -> Bool {
    if watchesEverything { return true }
    if ids.contains(id) { return true }
    return !idPrefix.isEmpty && id.hasPrefix(idPrefix)
  }

  /// Every violation in the filter itself: listed ids must be valid ids.
  public func violations() -> [FieldViolation] {
    var found: [FieldViolation] = []
    for id in ids.sorted() {
      if let violation = WidgetID.violation(of: id, at: "ids") { found.append(violation) }
    }
    return found
  }
}
