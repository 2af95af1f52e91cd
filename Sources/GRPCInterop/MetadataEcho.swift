import GRPCCore
import GRPCTransport

/// Echo Metadata: `x-grpc-test-echo-initial` comes back in the response
/// headers, `x-grpc-test-echo-trailing-bin` in the trailers.
struct MetadataEcho {
  static let initialKey = "x-grpc-test-echo-initial"
  static let trailingKey = "x-grpc-test-echo-trailing-bin"

  let initial: Metadata
  let trailers: Metadata

  init(_ request: Metadata) {
    var initial = Metadata()
    for value in request.values(for: Self.initialKey) { initial.add(Self.initialKey, value) }
    var trailers = Metadata()
    for value in request.values(for: Self.trailingKey) { trailers.add(Self.trailingKey, value) }
    self.initial = initial
    self.trailers = trailers
  }

  /// Sends the initial echo now, when there is one, so it leads the
  /// response whatever comes next.
  func start(_ call: ServerCall) {
    if !initial.isEmpty { call.sendInitialMetadata(initial) }
  }

  func finish(_ call: ServerCall, _ status: GRPCStatus) {
    call.finish(status, trailers: trailers)
  }
}
