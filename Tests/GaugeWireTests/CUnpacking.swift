import CProtobufC

/// Reads encoder output back through the generated protobuf-c unpack, the
/// independent judge of what the bytes mean.
func unpackedWithC<Message, Result>(
  _ bytes: [UInt8],
  _ unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) ->
    UnsafeMutablePointer<Message>?,
  _ free: (UnsafeMutablePointer<Message>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
  read: (Message) -> Result
) -> Result? {
  bytes.withUnsafeBufferPointer { buffer in
    guard let message = unpack(nil, buffer.count, buffer.baseAddress) else { return nil }
    defer { free(message, nil) }
    return read(message.pointee)
  }
}

func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
  pointer.map { String(cString: $0) }
}

func strings(_ count: Int, _ pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> [String?]
{
  UnsafeBufferPointer(start: pointers, count: count).map(string)
}
