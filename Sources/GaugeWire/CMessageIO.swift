import CProtobufC

// The generated `<type>__unpack` and `__free_unpacked` functions are passed
// in as they are, so each decoder names its message type once. Packing uses
// ProtobufCSupport's `packed`; unpacking stays here because gauge.v1 requests
// also have every string field checked before they are read.

/// Unpacks `bytes`, checks every string field in them, and hands the message
/// to `read`; the message is freed when `read` returns.
func withUnpacked<Message, Result>(
  _ bytes: UnsafeRawBufferPointer,
  as messageName: String,
  _ unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) ->
    UnsafeMutablePointer<Message>?,
  _ free: (UnsafeMutablePointer<Message>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
  read: (Message) throws(WireError) -> Result
) throws(WireError) -> Result {
  let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
  guard let message = unpack(nil, bytes.count, data) else {
    throw WireError(message: "the bytes are not a valid \(messageName)")
  }
  defer { free(message, nil) }
  // Every generated struct starts with its ProtobufCMessage.
  let descriptor = UnsafeRawPointer(message).load(as: ProtobufCMessage.self).descriptor!
  try StringFieldCheck.check(bytes, as: descriptor)
  return try read(message.pointee)
}
