/// The `grpc_type` label, as go-grpc-prometheus spells it.
public enum GRPCCallType: String, Sendable {
  case unary
  case clientStream = "client_stream"
  case serverStream = "server_stream"
  case bidiStream = "bidi_stream"

  public init(_ traits: RPCMethodTraits) {
    switch (traits.clientStreams, traits.serverStreams) {
    case (false, false): self = .unary
    case (true, false): self = .clientStream
    case (false, true): self = .serverStream
    case (true, true): self = .bidiStream
    }
  }
}
