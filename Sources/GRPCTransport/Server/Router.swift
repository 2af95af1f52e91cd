/// Maps a `:path` of `/package.Service/Method` to the service that owns it.
public struct Router: Sendable {
  private var services: [String: any GRPCService] = [:]

  public init(services: [any GRPCService] = []) {
    for service in services { register(service) }
  }

  public mutating func register(_ service: any GRPCService) {
    services[service.serviceName] = service
  }

  public var serviceNames: [String] { services.keys.sorted() }

  enum Route {
    case found(any GRPCService, service: String, method: String)
    case unknownService(String)
    case unknownMethod(service: String, method: String)
    case malformed
  }

  func route(path: String) -> Route {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
      return .malformed
    }
    let serviceName = String(parts[1])
    let method = String(parts[2])
    guard let service = services[serviceName] else { return .unknownService(serviceName) }
    guard service.methodNames.contains(method) else {
      return .unknownMethod(service: serviceName, method: method)
    }
    return .found(service, service: serviceName, method: method)
  }
}
