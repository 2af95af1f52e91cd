import CProtobufC

// The generated `<type>__unpack`, `__free_unpacked`, `__get_packed_size` and
// `__pack` functions are passed in as they are, so each codec names its
// message type once and the unsafe plumbing lives here.

/// Unpacks `bytes` into a C message, hands it to `read`, and frees it when
/// `read` returns; nil when the bytes are not a valid message. The message
/// and everything it points to live only for the duration of `read`.
public func withUnpacked<Message, Result>(
  _ bytes: [UInt8],
  _ unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) ->
    UnsafeMutablePointer<Message>?,
  _ free: (UnsafeMutablePointer<Message>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
  read: (UnsafeMutablePointer<Message>) -> Result
) -> Result? {
  bytes.withUnsafeBufferPointer { buffer in
    guard let message = unpack(nil, buffer.count, buffer.baseAddress) else { return nil }
    defer { free(message, nil) }
    return read(message)
  }
}

/// Packs a C message into a new array of exactly its packed size.
public func packed<Message>(
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

/// A C string field's text; protobuf-c leaves absent strings NULL or
/// pointing at the empty default. Invalid UTF-8 is repaired, never trusted.
public func text(_ pointer: UnsafePointer<CChar>?) -> String {
  pointer.map { String(cString: $0) } ?? ""
}
