/// What a Subscribe call asks for.
public struct SubscribeQuery: Sendable, Equatable {
  /// Empty, with an empty prefix, means every widget.
  public var ids: [String]
  public var idPrefix: String
  /// The schema's default, true, when absent.
  public var includeSnapshot: Bool
  public var sinceRevision: UInt64?
  public var minIntervalMs: UInt32
  /// Value-only changes come as `value` events.
  public var valueDeltas: Bool

  public init(
    ids: [String] = [], idPrefix: String = "", includeSnapshot: Bool = true,
    sinceRevision: UInt64? = nil, minIntervalMs: UInt32 = 0, valueDeltas: Bool = false
  ) {
    self.valueDeltas = valueDeltas
    self.ids = ids
    self.idPrefix = idPrefix
    self.includeSnapshot = includeSnapshot
    self.sinceRevision = sinceRevision
    self.minIntervalMs = minIntervalMs
  }
}
