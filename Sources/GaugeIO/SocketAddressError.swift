/// Text that `SocketAddress(parsing:)` could not turn into an address.
public struct SocketAddressError: Error, Sendable, Equatable, CustomStringConvertible {
  public var input: String
  public var reason: String

  public init(input: String, reason: String) {
    self.input = input
    self.reason = reason
  }

  public var description: String {
    "invalid socket address \"\(input)\": \(reason)"
  }
}
