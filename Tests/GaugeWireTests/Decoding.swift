import GaugeWire

/// Runs a decoder on an array, as the service will on a received frame.
func decode<Value>(
  _ bytes: [UInt8], with decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
) throws(WireError) -> Value {
  // withUnsafeBytes rethrows untyped errors; Result keeps the type.
  try bytes.withUnsafeBytes { buffer in Result { () throws(WireError) in try decoder(buffer) } }
    .get()
}

func decode<Value>(
  _ message: ProtoBytes, with decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
) throws(WireError) -> Value {
  try decode(message.bytes, with: decoder)
}

/// The error a decoder throws, or nil when it accepts the bytes.
func wireError<Value>(
  _ bytes: [UInt8], with decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
) -> WireError? {
  do {
    _ = try decode(bytes, with: decoder)
    return nil
  } catch {
    return error
  }
}
