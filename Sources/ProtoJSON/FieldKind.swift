import CProtobufC

/// A field's protobuf type, as the transcoders switch on it.
enum FieldKind: Sendable {
  case int32, sint32, sfixed32, uint32, fixed32
  case int64, sint64, sfixed64, uint64, fixed64
  case float, double, bool, enumeration
  case string, bytes, message

  init(_ type: ProtobufCType) {
    switch type {
    case PROTOBUF_C_TYPE_INT32: self = .int32
    case PROTOBUF_C_TYPE_SINT32: self = .sint32
    case PROTOBUF_C_TYPE_SFIXED32: self = .sfixed32
    case PROTOBUF_C_TYPE_UINT32: self = .uint32
    case PROTOBUF_C_TYPE_FIXED32: self = .fixed32
    case PROTOBUF_C_TYPE_INT64: self = .int64
    case PROTOBUF_C_TYPE_SINT64: self = .sint64
    case PROTOBUF_C_TYPE_SFIXED64: self = .sfixed64
    case PROTOBUF_C_TYPE_UINT64: self = .uint64
    case PROTOBUF_C_TYPE_FIXED64: self = .fixed64
    case PROTOBUF_C_TYPE_FLOAT: self = .float
    case PROTOBUF_C_TYPE_DOUBLE: self = .double
    case PROTOBUF_C_TYPE_BOOL: self = .bool
    case PROTOBUF_C_TYPE_ENUM: self = .enumeration
    case PROTOBUF_C_TYPE_STRING: self = .string
    case PROTOBUF_C_TYPE_BYTES: self = .bytes
    case PROTOBUF_C_TYPE_MESSAGE: self = .message
    default: preconditionFailure("protobuf-c field type \(type.rawValue) is not one of 1.4.1's")
    }
  }

  /// The wire type of one value of this kind.
  var wireType: WireType {
    switch self {
    case .int32, .sint32, .uint32, .int64, .sint64, .uint64, .bool, .enumeration: .varint
    case .sfixed32, .fixed32, .float: .fixed32
    case .sfixed64, .fixed64, .double: .fixed64
    case .string, .bytes, .message: .lengthDelimited
    }
  }

  /// Repeated fields of this kind may be packed into one length-delimited
  /// value (every numeric kind may).
  var isPackable: Bool { wireType != .lengthDelimited }

  /// The proto type's name, for messages about it.
  var protoName: String {
    switch self {
    case .int32: "int32"
    case .sint32: "sint32"
    case .sfixed32: "sfixed32"
    case .uint32: "uint32"
    case .fixed32: "fixed32"
    case .int64: "int64"
    case .sint64: "sint64"
    case .sfixed64: "sfixed64"
    case .uint64: "uint64"
    case .fixed64: "fixed64"
    case .float: "float"
    case .double: "double"
    case .bool: "bool"
    case .enumeration: "enum"
    case .string: "string"
    case .bytes: "bytes"
    case .message: "message"
    }
  }
}
