import CProtobufC

// Presence-preserving reads of protobuf-c fields. Strings are known to be
// valid UTF-8 without NUL here: StringFieldCheck has already run.

func optionalString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
  pointer.map { String(cString: $0) }
}

func strings(_ count: Int, _ pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> [String]
{
  UnsafeBufferPointer(start: pointers, count: count).map { optionalString($0) ?? "" }
}

func optional<Value>(_ has: protobuf_c_boolean, _ value: Value) -> Value? {
  has != 0 ? value : nil
}

/// The messages of a repeated message field; protobuf-c never stores NULL
/// elements, but a NULL is skipped rather than trusted.
func messages<Message>(
  _ count: Int, _ pointers: UnsafeMutablePointer<UnsafeMutablePointer<Message>?>?
) -> [Message] {
  UnsafeBufferPointer(start: pointers, count: count).compactMap { $0?.pointee }
}
