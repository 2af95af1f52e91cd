/// The answer to a PublishValues stream.
public struct PublishSummary: Sendable, Equatable {
  public var accepted: UInt64
  public var rejected: UInt64
  /// The first 100 rejections, in stream order.
  public var rejections: [PublishRejection]

  public init(accepted: UInt64, rejected: UInt64, rejections: [PublishRejection]) {
    self.accepted = accepted
    self.rejected = rejected
    self.rejections = rejections
  }
}
