/// A stored widget: valid by construction once it leaves the domain.
public struct Widget: Sendable, Equatable {
  public var id: String
  public var name: String
  public var content: Content
  /// The server-wide revision of this widget's last change.
  public var revision: UInt64
  public var createdAtMs: Int64
  public var updatedAtMs: Int64
  /// How long the widget may go without a write before it is marked stale;
  /// nil, never.
  public var staleAfterMs: Int64?
  /// Set by the server when no write came within `staleAfterMs` of
  /// `updatedAtMs`; the next write clears it.
  public var stale: Bool

  public init(
    id: String, name: String, content: Content, revision: UInt64, createdAtMs: Int64,
    updatedAtMs: Int64, staleAfterMs: Int64? = nil, stale: Bool = false
  ) {
    self.id = id
    self.name = name
    self.content = content
    self.revision = revision
    self.createdAtMs = createdAtMs
    self.updatedAtMs = updatedAtMs
    self.staleAfterMs = staleAfterMs
    self.stale = stale
  }

  /// When the widget goes stale if nothing writes it; nil when it never does
  /// or already has.
  public var staleDeadlineMs: Int64? {
    guard let staleAfterMs, !stale else { return nil }
    return updatedAtMs + staleAfterMs
  }
}
