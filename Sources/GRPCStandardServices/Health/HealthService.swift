import GRPCCore
import GRPCTransport
import Synchronization

/// `grpc.health.v1.Health`: the serving status of the server ("") and of
/// each service, for load balancers and orchestrators. Check answers the
/// status now; Watch answers it now and again whenever it changes.
///
/// Statuses may be set from any thread.
public final class HealthService: GRPCService {
  public static let name = "grpc.health.v1.Health"
  public let serviceName = HealthService.name
  public let methodNames = ["Check", "Watch"]

  private struct State {
    var statuses: [String: ServingStatus] = [:]
    /// Once shut down, every status stays NOT_SERVING.
    var shutDown = false
    var watchers: [String: [ObjectIdentifier: HealthWatchHandler]] = [:]
  }

  private let state: Mutex<State>

  /// The server ("") and every service in `services` start SERVING.
  public init(services: [String] = []) {
    var initial = State()
    for name in [""] + services { initial.statuses[name] = .serving }
    state = Mutex(initial)
  }

  /// Sets a status and tells every watcher of that service. Ignored after
  /// `shutdown()`, so a late update cannot claim a stopping server serves.
  public func setStatus(_ status: ServingStatus, for service: String) {
    let watchers = state.withLock { state -> [HealthWatchHandler] in
      guard !state.shutDown, state.statuses[service] != status else { return [] }
      state.statuses[service] = status
      return state.watchers[service].map { Array($0.values) } ?? []
    }
    for watcher in watchers { watcher.statusChanged() }
  }

  /// Every known status becomes NOT_SERVING for good: the server is
  /// stopping. Watchers are told at once.
  public func shutdown() {
    let watchers = state.withLock { state -> [HealthWatchHandler] in
      guard !state.shutDown else { return [] }
      state.shutDown = true
      for name in state.statuses.keys { state.statuses[name] = .notServing }
      return state.watchers.values.flatMap(\.values)
    }
    for watcher in watchers { watcher.statusChanged() }
  }

  /// nil for a service the server does not know.
  public func status(for service: String) -> ServingStatus? {
    state.withLock { $0.statuses[service] }
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    switch method {
    case "Check":
      return UnaryHandler(call: call) { [self] request, responder in
        guard let service = HealthWire.decodeRequest(request) else {
          return responder.respond(
            .failure(GRPCStatus(.internal, "could not parse the HealthCheckRequest")))
        }
        guard let status = status(for: service) else {
          return responder.respond(
            .failure(GRPCStatus(.notFound, "unknown service \"\(service)\"")))
        }
        responder.respond(.success(HealthWire.encodeResponse(status)))
      }
    case "Watch":
      return HealthWatchHandler(call: call, health: self)
    default:
      return nil
    }
  }

  func addWatcher(_ watcher: HealthWatchHandler, for service: String) {
    state.withLock { $0.watchers[service, default: [:]][ObjectIdentifier(watcher)] = watcher }
  }

  func removeWatcher(_ watcher: HealthWatchHandler, for service: String) {
    state.withLock { state in
      state.watchers[service]?[ObjectIdentifier(watcher)] = nil
      if state.watchers[service]?.isEmpty == true { state.watchers[service] = nil }
    }
  }
}
