/// Which widget ids a caller may see and change: all of them, or those
/// starting with a token's prefix.
public enum WidgetReach: Sendable, Hashable {
  case everything
  case prefix(String)

  public init(prefix: String) {
    self = prefix.isEmpty ? .everything : .prefix(prefix)
  }

  public var prefix: String {
    switch self {
    case .everything: ""
    case .prefix(let prefix): prefix
    }
  }

  public func allows(_ id: some StringProtocol) -> Bool {
    switch self {
    case .everything: true
    case .prefix(let prefix): id.hasPrefix(prefix)
    }
  }

  /// The id prefix a listing may use within this reach: `requested` when it
  /// is already inside, the reach's own prefix when `requested` is wider,
  /// nil when the two have no id in common.
  public func narrow(prefix requested: String) -> String? {
    switch self {
    case .everything: return requested
    case .prefix(let prefix):
      if requested.hasPrefix(prefix) { return requested }
      if prefix.hasPrefix(requested) { return prefix }
      return nil
    }
  }

  /// `filter` cut down to this reach, or the violation that forbids it:
  /// every listed id must be inside, and a prefix (or no filter at all) is
  /// narrowed to the reach.
  public func narrow(_ filter: WidgetFilter) -> Result<WidgetFilter, WidgetError> {
    guard case .prefix(let prefix) = self else { return .success(filter) }
    if let outside = filter.ids.sorted().first(where: { !allows($0) }) {
      return .failure(.outsideReach(id: outside, prefix: prefix))
    }
    if !filter.ids.isEmpty, filter.idPrefix.isEmpty {
      return .success(filter)
    }
    guard let narrowed = narrow(prefix: filter.idPrefix) else {
      return .failure(.outsideReach(id: filter.idPrefix, prefix: prefix))
    }
    return .success(WidgetFilter(ids: Array(filter.ids), idPrefix: narrowed))
  }
}
