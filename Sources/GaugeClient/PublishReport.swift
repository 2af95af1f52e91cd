/// What the server made of a `ValuePublisher`'s values.
public struct PublishReport: Sendable, Equatable {
  /// Values stored.
  public var accepted: UInt64
  /// Values refused; `rejections` says which and why (the server may
  /// list only the first ones).
  public var rejected: UInt64
  /// The refused values.
  public var rejections: [Rejection]

  /// A report; the library makes them from the server's summary.
  public init(accepted: UInt64, rejected: UInt64, rejections: [Rejection]) {
    self.accepted = accepted
    self.rejected = rejected
    self.rejections = rejections
  }

  /// One refused value.
  public struct Rejection: Sendable, Equatable {
    /// Its position among the values sent, from 0.
    public var index: UInt64
    /// The widget it was for.
    public var id: String
    /// Why, as a status code: `notFound`, `invalidArgument`...
    public var code: GaugeError.Code
    /// Why, in words.
    public var message: String

    /// A rejection; the library makes them from the server's summary.
    public init(index: UInt64, id: String, code: GaugeError.Code, message: String) {
      self.index = index
      self.id = id
      self.code = code
      self.message = message
    }
  }
}
