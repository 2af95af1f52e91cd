/// When a token was last used, as the server keeps it between restarts:
/// to the second, written now and then rather than on every request.
public struct TokenUse: Sendable, Equatable {
  public var name: String
  /// Unix milliseconds.
  public var lastUsedMs: Int64

  public init(name: String, lastUsedMs: Int64) {
    self.name = name
    self.lastUsedMs = lastUsedMs
  }
}
