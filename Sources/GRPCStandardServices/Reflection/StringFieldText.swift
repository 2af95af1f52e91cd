import GRPCCore

/// Whether a request's string fields hold text protobuf-c can be trusted
/// with, read from the raw bytes before it unpacks them: protobuf-c keeps a
/// string as a C string, so it would cut one at a NUL ("gauge.v1.Widget\0x"
/// read as "gauge.v1.Widget"), and it takes any bytes for a proto3 string,
/// which reflection would then echo into a response no client can parse.
/// (WidgetService does the same with its messages' descriptors, in
/// `GaugeWire.StringFieldCheck`.)
enum StringFieldText {
  /// True when `bytes` parse and every field numbered in `strings` is UTF-8
  /// without NUL; the fields numbered in `nested` are messages whose own
  /// string fields are checked the same way.
  static func isValid(
    _ bytes: ArraySlice<UInt8>, strings: Set<Int>, nested: [Int: Set<Int>] = [:]
  ) -> Bool {
    var reader = ProtoWireReader(bytes)
    do {
      while let (number, value) = try reader.next() {
        guard case .bytes(let payload) = value else { continue }
        if strings.contains(number) {
          guard !payload.contains(0), String(validating: payload, as: UTF8.self) != nil else {
            return false
          }
        } else if let inner = nested[number], !isValid(payload, strings: inner) {
          return false
        }
      }
    } catch {
      return false
    }
    return true
  }
}
