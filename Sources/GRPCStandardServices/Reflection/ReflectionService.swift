import GRPCCore
import GRPCTransport

/// `grpc.reflection.v1.ServerReflection` or its v1alpha twin: lists the
/// server's services and serves the FileDescriptorProtos compiled from
/// `proto/`, so grpcurl, grpcui, Postman and evans need no proto files.
public struct ReflectionService: GRPCService {
  public enum Version: String, Sendable, CaseIterable {
    case v1
    case v1alpha
  }

  public let serviceName: String
  public let methodNames = ["ServerReflectionInfo"]
  private let listed: [String]
  private let index: DescriptorIndex

  /// Both versions, listing `services` and themselves. Only the files
  /// declaring listed services, and their imports, are served.
  public static func allVersions(listing services: [String]) -> [ReflectionService] {
    let names = Set(services + Version.allCases.map(serviceName(for:))).sorted()
    let index = (try? EmbeddedDescriptors.index.get())?.serving(names) ?? DescriptorIndex(files: [])
    return Version.allCases.map { ReflectionService(version: $0, listing: names, index: index) }
  }

  public static func serviceName(for version: Version) -> String {
    "grpc.reflection.\(version.rawValue).ServerReflection"
  }

  init(version: Version, listing services: [String], index: DescriptorIndex) {
    self.serviceName = Self.serviceName(for: version)
    self.listed = services
    self.index = index
  }

  public func makeHandler(method: String, call: ServerCall) -> RPCHandler? {
    guard method == "ServerReflectionInfo" else { return nil }
    return ReflectionHandler(call: call, answer: answer)
  }

  func answer(_ request: ReflectionRequest) -> ReflectionAnswer {
    switch request {
    case .listServices:
      return .services(listed)
    case .fileByFilename(let name):
      return files(name) ?? .error(.notFound, "file \"\(name)\" is not served here")
    case .fileContainingSymbol(let symbol):
      guard let name = index.fileName(containingSymbol: symbol), let found = files(name) else {
        return .error(.notFound, "symbol \"\(symbol)\" is not declared in any file served here")
      }
      return found
    case .fileContainingExtension(let type, let number):
      // The served files declare no extensions.
      return .error(.notFound, "no extension \(number) of \"\(type)\" is served here")
    case .allExtensionNumbersOfType(let type):
      guard index.fileName(containingSymbol: type) != nil else {
        return .error(.notFound, "type \"\(type)\" is not declared in any file served here")
      }
      return .extensionNumbers(type: type, numbers: [])
    case .none:
      return .error(.invalidArgument, "the request sets none of the message_request fields")
    }
  }

  private func files(_ name: String) -> ReflectionAnswer? {
    index.fileWithDependencies(name).map { .files($0.map(\.bytes)) }
  }
}
