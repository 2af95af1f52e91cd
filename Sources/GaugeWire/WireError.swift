/// Bytes that are not a valid message of the expected type, or a string field
/// that is not UTF-8. The message names the message type or the field.
public struct WireError: Error, Sendable, Equatable {
  public var message: String

  public init(message: String) {
    self.message = message
  }
}
