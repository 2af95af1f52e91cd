import GRPCCore

/// One method's messages in the proto3 JSON mapping, for Connect's JSON
/// codec. Supplied by whoever knows the schema; the transport only knows
/// bytes. Failures are statuses naming the field and the rule.
public protocol WebRPCJSONCodec: Sendable {
  func requestBinary(fromJSON json: UnsafeRawBufferPointer) throws(GRPCStatus) -> [UInt8]
  func responseJSON(fromBinary binary: UnsafeRawBufferPointer) throws(GRPCStatus) -> [UInt8]
}
