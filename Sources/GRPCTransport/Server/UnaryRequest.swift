import GRPCCore

/// The one request message a unary method takes: the first is kept, and any
/// second makes the call malformed. Shared by `UnaryHandler` and by handlers
/// that decode their request as it arrives. Inlinable, so that a handler's
/// `Value` gets specialized code rather than generic calls per request.
public struct UnaryRequest<Value> {
  @usableFromInline var value: Value?
  @usableFromInline var count = 0

  @inlinable public init() {}

  /// Keeps what `make` gives for the first message; later ones are only
  /// counted, and `make` is not called for them.
  @inlinable public mutating func receive(_ make: () -> Value) {
    count += 1
    if count == 1 { value = make() }
  }

  /// Once the client has half-closed: the request, or the status a unary
  /// method answers when it got more than one message or none (as
  /// grpc-core servers do).
  @inlinable public var completed: Result<Value, GRPCStatus> {
    Self.completed(value, count: count)
  }

  /// `completed`, moving the request out rather than copying it: a call
  /// reads it once.
  @inlinable public mutating func takeCompleted() -> Result<Value, GRPCStatus> {
    Self.completed(value.take(), count: count)
  }

  @inlinable static func completed(_ value: consuming Value?, count: Int) -> Result<
    Value, GRPCStatus
  > {
    guard count <= 1 else {
      return .failure(
        GRPCStatus(.unimplemented, "unary method received more than one request message"))
    }
    guard let value else {
      return .failure(GRPCStatus(.unimplemented, "unary method received no request message"))
    }
    return .success(value)
  }
}
