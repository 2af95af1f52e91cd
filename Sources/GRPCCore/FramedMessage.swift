/// A response message with its 5-byte gRPC prefix (uncompressed), framed
/// once and shared: a stream with nothing else queued sends these very
/// bytes rather than a copy, so one event fanned out to many subscribers
/// costs a reference each instead of an allocation and a copy each.
public struct FramedMessage: Sendable {
  /// The prefix, then the message.
  public let bytes: [UInt8]

  public init(_ message: [UInt8]) {
    var bytes: [UInt8] = []
    MessageFramer.append(message, to: &bytes)
    self.bytes = bytes
  }

  /// The message without its prefix.
  public var message: [UInt8] { Array(bytes[MessageFramer.prefixBytes...]) }
}
