import CProtobufC

/// Every message and enum type reachable from some root messages, each
/// built once and referring to the others by index, so a recursive type
/// (a message that holds itself) is one entry. Immutable once built: it
/// holds no pointer into protobuf-c's descriptors.
final class SchemaGraph: Sendable {
  let messages: [MessageSchema]
  let enums: [EnumSchema]

  private init(messages: [MessageSchema], enums: [EnumSchema]) {
    self.messages = messages
    self.enums = enums
  }

  /// The graph of `roots` and what they reach, with the index of each root.
  static func build(
    _ roots: [UnsafePointer<ProtobufCMessageDescriptor>]
  ) -> (graph: SchemaGraph, roots: [Int]) {
    var builder = Builder()
    let indices = roots.map { builder.message($0) }
    return (SchemaGraph(messages: builder.messages, enums: builder.enums), indices)
  }

  /// Walks the descriptors, keyed by address: generated descriptors are
  /// globals that point at each other, so one address is one type.
  private struct Builder {
    /// Nil while a message's fields are being read.
    var drafts: [MessageSchema?] = []
    var messages: [MessageSchema] { drafts.map { $0! } }
    var enums: [EnumSchema] = []
    var messageIndex: [UnsafeRawPointer: Int] = [:]
    var enumIndex: [UnsafeRawPointer: Int] = [:]

    mutating func message(_ descriptor: UnsafePointer<ProtobufCMessageDescriptor>) -> Int {
      if let known = messageIndex[UnsafeRawPointer(descriptor)] { return known }
      let header = descriptor.pointee
      precondition(
        header.magic == PROTOBUF_C__MESSAGE_DESCRIPTOR_MAGIC, "not a protobuf-c message descriptor")
      // Registered before its fields are read, so a field of its own type
      // finds it.
      let index = drafts.count
      messageIndex[UnsafeRawPointer(descriptor)] = index
      drafts.append(nil)

      var fields: [(field: MessageSchema.Field, protoName: [UInt8])] = []
      var oneofs: [UInt32: Int] = [:]
      for position in 0..<Int(header.n_fields) {
        let field = header.fields[position]
        let kind = FieldKind(field.type)
        var oneof: Int?
        if field.flags & UInt32(PROTOBUF_C_FIELD_FLAG_ONEOF.rawValue) != 0 {
          // protobuf-c keeps no oneof names; the members of one oneof share
          // the offset of its case member.
          oneof = oneofs[field.quantifier_offset, default: oneofs.count]
          oneofs[field.quantifier_offset] = oneof
        }
        var target = -1
        switch kind {
        case .message:
          target = self.message(
            field.descriptor.assumingMemoryBound(to: ProtobufCMessageDescriptor.self))
        case .enumeration:
          target = enumeration(
            field.descriptor.assumingMemoryBound(to: ProtobufCEnumDescriptor.self))
        default:
          break
        }
        let isRepeated = field.label == PROTOBUF_C_LABEL_REPEATED
        fields.append(
          (
            MessageSchema.Field(
              number: field.id, kind: kind, isRepeated: isRepeated,
              isPacked: kind.isPackable && isRepeated
                && field.flags & UInt32(PROTOBUF_C_FIELD_FLAG_PACKED.rawValue) != 0,
              oneof: oneof, target: target),
            Array(String(cString: field.name).utf8)
          ))
      }
      fields.sort { $0.field.number < $1.field.number }
      drafts[index] = MessageSchema(
        fullName: String(cString: header.name), fields: fields.map(\.field),
        protoNames: fields.map(\.protoName))
      return index
    }

    mutating func enumeration(_ descriptor: UnsafePointer<ProtobufCEnumDescriptor>) -> Int {
      if let known = enumIndex[UnsafeRawPointer(descriptor)] { return known }
      let header = descriptor.pointee
      precondition(
        header.magic == PROTOBUF_C__ENUM_DESCRIPTOR_MAGIC, "not a protobuf-c enum descriptor")
      let values = (0..<Int(header.n_values)).map { header.values[$0] }
        .enumerated().sorted { ($0.element.value, $0.offset) < ($1.element.value, $1.offset) }
        .map(\.element)
      enumIndex[UnsafeRawPointer(descriptor)] = enums.count
      enums.append(
        EnumSchema(
          fullName: String(cString: header.name), numbers: values.map { Int32($0.value) },
          names: values.map { Array(String(cString: $0.name).utf8) }))
      return enums.count - 1
    }
  }
}
