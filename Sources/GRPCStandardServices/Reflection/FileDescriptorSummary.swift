import GRPCCore
import GRPCTransport

/// What reflection needs to know about one serialized
/// `google.protobuf.FileDescriptorProto`: its name, imports, and every fully
/// qualified symbol it declares, read with descriptor.proto's field numbers.
struct FileDescriptorSummary: Sendable, Equatable {
  var name = ""
  var package = ""
  var dependencies: [String] = []
  /// Messages, fields, oneofs, enums, enum values, services, methods and
  /// extensions, fully qualified without a leading dot.
  var symbols: [String] = []
  var services: [String] = []
  /// Every method's streaming and idempotency, by `/package.Service/Method`
  /// path: what the web protocols need and gRPC's wire does not carry.
  var methodTraits: [String: RPCMethodTraits] = [:]
  /// The FileDescriptorProto exactly as compiled.
  var bytes: [UInt8] = []

  // descriptor.proto field numbers.
  private enum File {
    static let name = 1, package = 2, dependency = 3, messageType = 4, enumType = 5
    static let service = 6, `extension` = 7
  }
  private enum Message {
    static let name = 1, field = 2, nestedType = 3, enumType = 4, `extension` = 6, oneof = 8
  }
  private enum Enum {
    static let name = 1, value = 2
  }
  private enum Service {
    static let name = 1, method = 2
  }
  private enum Method {
    static let name = 1, options = 4, clientStreaming = 5, serverStreaming = 6
  }
  /// MethodOptions.idempotency_level and its NO_SIDE_EFFECTS value.
  private enum MethodOptions {
    static let idempotencyLevel = 34, noSideEffects: UInt64 = 1
  }
  /// FieldDescriptorProto, OneofDescriptorProto, EnumValueDescriptorProto
  /// and MethodDescriptorProto all keep their name in field 1.
  private static let nameField = 1

  init(parsing bytes: ArraySlice<UInt8>) throws(ProtoWireReader.Malformed) {
    self.bytes = Array(bytes)
    var messages: [ArraySlice<UInt8>] = []
    var enums: [ArraySlice<UInt8>] = []
    var services: [ArraySlice<UInt8>] = []
    var extensions: [ArraySlice<UInt8>] = []
    var reader = ProtoWireReader(bytes)
    while let (number, value) = try reader.next() {
      switch number {
      case File.name: name = value.text ?? ""
      case File.package: package = value.text ?? ""
      case File.dependency: if let text = value.text { dependencies.append(text) }
      case File.messageType: if let body = value.message { messages.append(body) }
      case File.enumType: if let body = value.message { enums.append(body) }
      case File.service: if let body = value.message { services.append(body) }
      case File.extension: if let body = value.message { extensions.append(body) }
      default: break
      }
    }
    let scope = package.isEmpty ? "" : package + "."
    for message in messages { try addMessage(message, scope: scope) }
    for body in enums { try addEnum(body, scope: scope) }
    for body in extensions { symbols.append(scope + (try Self.name(of: body))) }
    for body in services { try addService(body, scope: scope) }
  }

  private mutating func addMessage(_ body: ArraySlice<UInt8>, scope: String)
    throws(ProtoWireReader.Malformed)
  {
    var name = ""
    var members: [ArraySlice<UInt8>] = []
    var nested: [ArraySlice<UInt8>] = []
    var enums: [ArraySlice<UInt8>] = []
    var reader = ProtoWireReader(body)
    while let (number, value) = try reader.next() {
      switch number {
      case Message.name: name = value.text ?? ""
      case Message.field, Message.extension, Message.oneof:
        if let member = value.message { members.append(member) }
      case Message.nestedType: if let member = value.message { nested.append(member) }
      case Message.enumType: if let member = value.message { enums.append(member) }
      default: break
      }
    }
    let fullName = scope + name
    symbols.append(fullName)
    for member in members { symbols.append(fullName + "." + (try Self.name(of: member))) }
    for message in nested { try addMessage(message, scope: fullName + ".") }
    for body in enums { try addEnum(body, scope: fullName + ".") }
  }

  /// Enum values are siblings of their enum, as in C++: `pkg.Enum` and
  /// `pkg.VALUE`.
  private mutating func addEnum(_ body: ArraySlice<UInt8>, scope: String)
    throws(ProtoWireReader.Malformed)
  {
    var name = ""
    var values: [String] = []
    var reader = ProtoWireReader(body)
    while let (number, value) = try reader.next() {
      switch number {
      case Enum.name: name = value.text ?? ""
      case Enum.value: if let member = value.message { values.append(try Self.name(of: member)) }
      default: break
      }
    }
    symbols.append(scope + name)
    for value in values { symbols.append(scope + value) }
  }

  private mutating func addService(_ body: ArraySlice<UInt8>, scope: String)
    throws(ProtoWireReader.Malformed)
  {
    var name = ""
    var methods: [(name: String, traits: RPCMethodTraits)] = []
    var reader = ProtoWireReader(body)
    while let (number, value) = try reader.next() {
      switch number {
      case Service.name: name = value.text ?? ""
      case Service.method:
        if let member = value.message { methods.append(try Self.method(member)) }
      default: break
      }
    }
    services.append(scope + name)
    symbols.append(scope + name)
    for method in methods {
      symbols.append(scope + name + "." + method.name)
      methodTraits["/\(scope)\(name)/\(method.name)"] = method.traits
    }
  }

  private static func method(_ body: ArraySlice<UInt8>) throws(ProtoWireReader.Malformed)
    -> (name: String, traits: RPCMethodTraits)
  {
    var name = ""
    var traits = RPCMethodTraits()
    var reader = ProtoWireReader(body)
    while let (number, value) = try reader.next() {
      switch number {
      case Method.name: name = value.text ?? ""
      case Method.clientStreaming:
        if case .varint(let flag) = value { traits.clientStreams = flag != 0 }
      case Method.serverStreaming:
        if case .varint(let flag) = value { traits.serverStreams = flag != 0 }
      case Method.options:
        guard let options = value.message else { break }
        var optionsReader = ProtoWireReader(options)
        while let (option, level) = try optionsReader.next() {
          if option == MethodOptions.idempotencyLevel, case .varint(let raw) = level {
            traits.sideEffectFree = raw == MethodOptions.noSideEffects
          }
        }
      default: break
      }
    }
    return (name, traits)
  }

  private static func name(of body: ArraySlice<UInt8>) throws(ProtoWireReader.Malformed)
    -> String
  {
    var reader = ProtoWireReader(body)
    while let (number, value) = try reader.next() {
      if number == nameField { return value.text ?? "" }
    }
    return ""
  }
}
