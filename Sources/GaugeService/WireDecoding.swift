import GaugeWire

enum WireDecoding {
  /// Runs a GaugeWire decoder over a message's bytes.
  static func decode<Value>(
    _ bytes: [UInt8], with decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
  ) -> Result<Value, WireError> {
    bytes.withUnsafeBytes { decode($0, with: decoder) }
  }

  /// The same over bytes read in place.
  static func decode<Value>(
    _ bytes: UnsafeRawBufferPointer,
    with decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
  ) -> Result<Value, WireError> {
    Result { () throws(WireError) in try decoder(bytes) }
  }
}
