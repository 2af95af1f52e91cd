/// A stored widget: valid by construction once it leaves the domain.
public struct Widget: Sendable, Equatable {
  public var id: String
  public var name: String
  public var content: Content
  /// The server-wide revision of this widget's last change.
  public var revision: UInt64
  public var createdAtMs: Int64
  public var updatedAtMs: Int64

  public init(
    id: String, name: String, content: Content, revision: UInt64, createdAtMs: Int64,
    updatedAtMs: Int64
  ) {
    self.id = id
    self.name = name
    self.content = content
    self.revision = revision
    self.createdAtMs = createdAtMs
    self.updatedAtMs = updatedAtMs
  }
}
