import GRPCTransport

/// `grpc.testing.UnimplementedService`: registered, with no method
/// implemented, so every call is UNIMPLEMENTED (the unimplemented_service
/// case).
public struct UnimplementedService: GRPCService {
  public let serviceName = "grpc.testing.UnimplementedService"
  public let methodNames: [String] = []

  public init() {}

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    nil
  }
}
