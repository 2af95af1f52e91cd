/// One rejected item of a PublishValues stream.
public struct PublishRejection: Sendable, Equatable {
  /// 0-based position of the item in the stream.
  public var index: UInt64
  public var id: String
  /// A google.rpc.Code value.
  public var code: Int32
  public var message: String

  public init(index: UInt64, id: String, code: Int32, message: String) {
    self.index = index
    self.id = id
    self.code = code
    self.message = message
  }
}
