/// `grpc.health.v1.HealthCheckResponse.ServingStatus`; raw values are the
/// wire numbers.
public enum ServingStatus: Int32, Sendable, Equatable, CaseIterable {
  case unknown = 0
  case serving = 1
  case notServing = 2
  /// Only Watch reports this, for a service the server does not know.
  case serviceUnknown = 3
}
