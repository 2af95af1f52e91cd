import Glibc

/// Maps a `:path` of `/package.Service/Method` to the service that owns it.
public struct Router: Sendable {
  private var services: [String: any GRPCService] = [:]

  public init(services: [any GRPCService] = []) {
    for service in services { register(service) }
  }

  public mutating func register(_ service: any GRPCService) {
    services[service.serviceName] = service
    serviceNameBytes = services.keys.map { Array($0.utf8) }
  }

  /// The registered names as bytes, for `namesService`.
  private var serviceNameBytes: [[UInt8]] = []

  /// True when the path's first segment is a registered service's name:
  /// a request there without gRPC's content type is told what gRPC needs,
  /// and every other path goes to the HTTP faces without being routed.
  func namesService(_ path: [UInt8]) -> Bool {
    path.withUnsafeBufferPointer { namesService($0) }
  }

  /// Whether `path`'s first segment is a registered service's name: the
  /// check every HTTP request (REST, pages, events) passes through on its
  /// way past the RPC faces, so it compares bytes and makes nothing.
  func namesService(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = path.baseAddress, path.count > 1, base[0] == UInt8(ascii: "/") else {
      return false
    }
    var end = 1
    while end < path.count, base[end] != UInt8(ascii: "/") { end += 1 }
    let length = end - 1
    for name in serviceNameBytes where name.count == length {
      let same = name.withUnsafeBufferPointer { name in
        memcmp(name.baseAddress!, base + 1, length) == 0
      }
      if same { return true }
    }
    return false
  }

  public var serviceNames: [String] { services.keys.sorted() }

  enum Route {
    case found(any GRPCService, service: String, method: String)
    case unknownService(String)
    case unknownMethod(service: String, method: String)
    case malformed
  }

  func route(path: String) -> Route {
    // `/service/method`, found by byte offsets: this runs for every call.
    let bytes = path.utf8
    guard bytes.first == UInt8(ascii: "/"),
      let slash = bytes.dropFirst().firstIndex(of: UInt8(ascii: "/"))
    else { return .malformed }
    let serviceBytes = bytes[bytes.index(after: bytes.startIndex)..<slash]
    let methodBytes = bytes[bytes.index(after: slash)...]
    guard !serviceBytes.isEmpty, !methodBytes.isEmpty,
      !methodBytes.contains(UInt8(ascii: "/"))
    else { return .malformed }
    let serviceName = String(Substring(serviceBytes))
    let method = String(Substring(methodBytes))
    guard let service = services[serviceName] else { return .unknownService(serviceName) }
    guard service.methodNames.contains(method) else {
      return .unknownMethod(service: serviceName, method: method)
    }
    return .found(service, service: serviceName, method: method)
  }
}
