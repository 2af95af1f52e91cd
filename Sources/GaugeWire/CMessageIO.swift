import CProtobufC

// The generated `<type>__unpack`, `__free_unpacked`, `__get_packed_size` and
// `__pack` functions are passed in as they are, so each decoder and encoder
// names its message type once and the unsafe plumbing lives here.

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

/// Packs a message into a new array of exactly its packed size.
func packed<Message>(
  _ message: UnsafePointer<Message>,
  _ packedSize: (UnsafePointer<Message>?) -> Int,
  _ pack: (UnsafePointer<Message>?, UnsafeMutablePointer<UInt8>?) -> Int
) -> [UInt8] {
  let size = packedSize(message)
  guard size > 0 else { return [] }
  return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    count = pack(message, buffer.baseAddress)
  }
}
