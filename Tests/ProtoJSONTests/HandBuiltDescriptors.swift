import CProtobufC
import Glibc
import ProtoJSON

/// Message descriptors built by hand, for the field types gauge.v1 does
/// not use and for a message that holds itself. They are freed as soon as
/// the mapping is built: a mapping must keep no pointer into them.
enum HandBuiltDescriptors {
  struct Field {
    var name: String
    var number: UInt32
    var type: ProtobufCType
    var repeated = false
    var packed = false
    /// A message field of the message being built.
    var ofItself = false
  }

  static let scalarFields: [Field] = [
    Field(name: "float_value", number: 1, type: PROTOBUF_C_TYPE_FLOAT),
    Field(name: "sint32_value", number: 2, type: PROTOBUF_C_TYPE_SINT32),
    Field(name: "sint64_value", number: 3, type: PROTOBUF_C_TYPE_SINT64),
    Field(name: "fixed32_value", number: 4, type: PROTOBUF_C_TYPE_FIXED32),
    Field(name: "fixed64_value", number: 5, type: PROTOBUF_C_TYPE_FIXED64),
    Field(name: "sfixed32_value", number: 6, type: PROTOBUF_C_TYPE_SFIXED32),
    Field(name: "sfixed64_value", number: 7, type: PROTOBUF_C_TYPE_SFIXED64),
    Field(name: "bytes_value", number: 8, type: PROTOBUF_C_TYPE_BYTES),
    Field(
      name: "packed_ints", number: 9, type: PROTOBUF_C_TYPE_INT32, repeated: true, packed: true),
    Field(name: "sint64s", number: 10, type: PROTOBUF_C_TYPE_SINT64, repeated: true),
    Field(name: "int32_value", number: 11, type: PROTOBUF_C_TYPE_INT32),
    Field(name: "uint32_value", number: 12, type: PROTOBUF_C_TYPE_UINT32),
    Field(name: "bool_value", number: 13, type: PROTOBUF_C_TYPE_BOOL),
    Field(
      name: "packed_doubles", number: 14, type: PROTOBUF_C_TYPE_DOUBLE, repeated: true, packed: true
    ),
    Field(name: "floats", number: 15, type: PROTOBUF_C_TYPE_FLOAT, repeated: true),
    Field(name: "int64_value", number: 17, type: PROTOBUF_C_TYPE_INT64),
    Field(name: "uint64_value", number: 18, type: PROTOBUF_C_TYPE_UINT64),
    Field(name: "blobs", number: 20, type: PROTOBUF_C_TYPE_BYTES, repeated: true),
    // Declared out of order, as a descriptor may list them.
    Field(name: "child", number: 16, type: PROTOBUF_C_TYPE_MESSAGE, ofItself: true),
  ]

  /// test.Scalars: every numeric type, bytes, packed and unpacked repeated
  /// fields, and `child`, a Scalars of its own.
  static let scalars = message(named: "test.Scalars", fields: scalarFields)

  static func message(named name: String, fields: [Field]) -> ProtoJSONMessage {
    var strings: [UnsafeMutablePointer<CChar>] = []
    func cString(_ text: String) -> UnsafePointer<CChar> {
      let copy = strdup(text)!
      strings.append(copy)
      return UnsafePointer(copy)
    }
    let descriptor = UnsafeMutablePointer<ProtobufCMessageDescriptor>.allocate(capacity: 1)
    let fieldDescriptors = UnsafeMutablePointer<ProtobufCFieldDescriptor>.allocate(
      capacity: fields.count)
    defer {
      strings.forEach { free($0) }
      fieldDescriptors.deinitialize(count: fields.count)
      fieldDescriptors.deallocate()
      descriptor.deinitialize(count: 1)
      descriptor.deallocate()
    }
    for (index, field) in fields.enumerated() {
      (fieldDescriptors + index).initialize(
        to: ProtobufCFieldDescriptor(
          name: cString(field.name), id: field.number,
          label: field.repeated ? PROTOBUF_C_LABEL_REPEATED : PROTOBUF_C_LABEL_OPTIONAL,
          type: field.type, quantifier_offset: 0, offset: 0,
          descriptor: field.ofItself ? UnsafeRawPointer(descriptor) : nil, default_value: nil,
          flags: field.packed ? UInt32(PROTOBUF_C_FIELD_FLAG_PACKED.rawValue) : 0,
          reserved_flags: 0, reserved2: nil, reserved3: nil))
    }
    descriptor.initialize(
      to: ProtobufCMessageDescriptor(
        magic: UInt32(PROTOBUF_C__MESSAGE_DESCRIPTOR_MAGIC), name: cString(name),
        short_name: cString(name), c_name: cString(name), package_name: cString("test"),
        sizeof_message: 0, n_fields: UInt32(fields.count), fields: fieldDescriptors,
        fields_sorted_by_name: nil, n_field_ranges: 0, field_ranges: nil, message_init: nil,
        reserved1: nil, reserved2: nil, reserved3: nil))
    return ProtoJSONMessage(descriptor)
  }
}
