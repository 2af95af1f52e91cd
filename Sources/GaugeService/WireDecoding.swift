import GaugeWire

enum WireDecoding {
  /// Runs a GaugeWire decoder over a message's bytes.
  static func decode<Value>(
    _ bytes: [UInt8], with decoder: (UnsafeRawBufferPointer) throws(WireError) -> Value
  ) -> Result<Value, WireError> {
    bytes.withUnsafeBytes { raw in
      Result { () throws(WireError) in try decoder(raw) }
    }
  }
}
