/// Why the store could not be opened or closed cleanly: one line, naming the
/// path and the cause, for gauged to print before exiting.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
