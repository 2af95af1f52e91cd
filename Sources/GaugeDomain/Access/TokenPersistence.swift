/// Where tokens made or revoked while the server runs are kept, so that a
/// restart finds them. Only digests are ever stored.
public protocol TokenPersistence: Sendable {
  func insert(_ token: AccessToken) throws(TokenPersistenceError)
  func remove(name: String) throws(TokenPersistenceError)
  /// Keeps when tokens were last used; names no longer stored are passed over.
  func recordUses(_ uses: [TokenUse]) throws(TokenPersistenceError)
}

public struct TokenPersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
