/// Protobuf's wire types; groups (3 and 4) are left out, as protobuf-c
/// leaves them out.
enum WireType: UInt8, Sendable {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case fixed32 = 5
}
