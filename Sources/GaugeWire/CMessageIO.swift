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
  // The unpacked pieces come from a scratch buffer on the stack while it
  // lasts: a request of the hot paths unpacks without malloc.
  return try withUnsafeTemporaryAllocation(byteCount: unpackScratchBytes, alignment: 16) {
    (scratch) throws(WireError) -> Result in
    var arena = gauged_pbc_arena()
    gauged_pbc_arena_init(&arena, scratch.baseAddress, scratch.count)
    return try withUnsafeMutablePointer(to: &arena) { (arena) throws(WireError) -> Result in
      let allocator = UnsafeMutableRawPointer(arena).assumingMemoryBound(
        to: ProtobufCAllocator.self)
      guard let message = unpack(allocator, bytes.count, data) else {
        throw WireError(message: "the bytes are not a valid \(messageName)")
      }
      defer { free(message, allocator) }
      // Every generated struct starts with its ProtobufCMessage.
      let descriptor = UnsafeRawPointer(message).load(as: ProtobufCMessage.self).descriptor!
      try StringFieldCheck.check(bytes, as: descriptor)
      return try read(message.pointee)
    }
  }
}

/// Enough for the unpacked requests of the unary and publishing paths;
/// larger messages spill into malloc. No more than 1 KiB: above that the
/// standard library may put a temporary allocation on the heap (it did
/// here, through malloc's slow path, which cost more than it saved).
private let unpackScratchBytes = 1024
