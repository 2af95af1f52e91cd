/// What a method's declaration says about calling it that gRPC's own wire
/// never needs: whether each side streams, and whether the call is safe to
/// repeat and cache. The web protocols pick their framing by it (Connect
/// unary or streaming) and allow Connect's GET only where it holds.
public struct RPCMethodTraits: Sendable, Equatable {
  public var clientStreams: Bool
  public var serverStreams: Bool
  /// `idempotency_level = NO_SIDE_EFFECTS` in the schema.
  public var sideEffectFree: Bool

  public init(
    clientStreams: Bool = false, serverStreams: Bool = false, sideEffectFree: Bool = false
  ) {
    self.clientStreams = clientStreams
    self.serverStreams = serverStreams
    self.sideEffectFree = sideEffectFree
  }

  public var isUnary: Bool { !clientStreams && !serverStreams }
}
