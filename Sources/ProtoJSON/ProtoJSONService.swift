import CProtobufC

/// A service's methods by name, each with the JSON mappings of its input
/// and output. The message types are built once for the whole service, so
/// methods that share a type share its tables.
public struct ProtoJSONService: Sendable {
  public let fullName: String
  private let methods: [String: (input: ProtoJSONMessage, output: ProtoJSONMessage)]

  public init(_ descriptor: UnsafePointer<ProtobufCServiceDescriptor>) {
    let header = descriptor.pointee
    precondition(
      header.magic == PROTOBUF_C__SERVICE_DESCRIPTOR_MAGIC, "not a protobuf-c service descriptor")
    let declared = (0..<Int(header.n_methods)).map { header.methods[$0] }
    let (graph, roots) = SchemaGraph.build(declared.flatMap { [$0.input!, $0.output!] })
    // One ProtoJSONMessage per type, however many methods use it.
    var messages: [Int: ProtoJSONMessage] = [:]
    func message(_ index: Int) -> ProtoJSONMessage {
      if let made = messages[index] { return made }
      let made = ProtoJSONMessage(graph: graph, index: index)
      messages[index] = made
      return made
    }
    var methods: [String: (input: ProtoJSONMessage, output: ProtoJSONMessage)] = [:]
    for (position, method) in declared.enumerated() {
      methods[String(cString: method.name)] = (
        message(roots[2 * position]), message(roots[2 * position + 1])
      )
    }
    fullName = String(cString: header.name)
    self.methods = methods
  }

  /// The method called `name` in the service ("UpdateWidget"), nil for
  /// one it does not declare.
  public func method(_ name: String) -> (input: ProtoJSONMessage, output: ProtoJSONMessage)? {
    methods[name]
  }
}
