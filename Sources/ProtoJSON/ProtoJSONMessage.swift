import CProtobufC

/// One message type's JSON mapping (protobuf's "ProtoJSON" format), built
/// once from its protobuf-c descriptor and reused for every message.
///
/// Sendable without a lock: everything is copied out of the descriptors
/// at init into immutable tables (`SchemaGraph`), and no pointer into C is
/// kept.
public final class ProtoJSONMessage: Sendable {
  private let graph: SchemaGraph
  private let index: Int

  public init(_ descriptor: UnsafePointer<ProtobufCMessageDescriptor>) {
    let built = SchemaGraph.build([descriptor])
    graph = built.graph
    index = built.roots[0]
  }

  /// A message type of a graph built for several (a service's methods),
  /// which share the types they have in common.
  init(graph: SchemaGraph, index: Int) {
    self.graph = graph
    self.index = index
  }

  /// The type's full name: "gauge.v1.Widget".
  public var fullName: String { graph.messages[index].fullName }

  /// Binary → a JSON object as UTF-8 bytes, without whitespace. Only fields
  /// present on the wire are written (proto2 presence), in number order;
  /// unknown fields are skipped.
  public func json(fromBinary bytes: UnsafeRawBufferPointer) throws(ProtoJSONError) -> [UInt8] {
    var transcoder = BinaryToJSON(graph: graph, capacity: 16 + bytes.count * 2)
    try transcoder.write(index, from: bytes)
    return transcoder.writer.bytes
  }

  /// A JSON object → binary. Strict: unknown field names are refused, naming
  /// the field; `null` leaves a field unset.
  public func binary(fromJSON bytes: UnsafeRawBufferPointer) throws(ProtoJSONError) -> [UInt8] {
    guard UTF8Check.isValid(bytes) else { throw .body("is not valid JSON: it is not UTF-8") }
    var transcoder = JSONToBinary(graph: graph, json: bytes)
    try transcoder.write(index)
    return transcoder.output.bytes
  }
}
