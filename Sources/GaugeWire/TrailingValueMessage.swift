import GaugeDomain

/// A request encoded once whose last field is the value, a double: the
/// same request with another value is the same bytes but for those last 8,
/// so producers that send one widget's value again and again rewrite them
/// instead of encoding (and allocating) a new message each time.
///
/// protobuf-c writes fields in number order, so the innermost value, the
/// highest-numbered field at each level, comes last; `init` checks that
/// the key before the last 8 bytes is the value's.
public struct TrailingValueMessage: Sendable {
  public private(set) var bytes: [UInt8]

  /// `ValueUpdate { id, value }`, one PublishValues item.
  public static func valueUpdate(id: String) -> TrailingValueMessage {
    TrailingValueMessage(WidgetWire.encodeValueUpdate(id: id, value: 0), valueKey: 2 << 3 | 1)
  }

  /// `UpdateWidgetRequest { id, content { value { value } } }`, value-only.
  public static func updateWidget(id: String) -> TrailingValueMessage {
    TrailingValueMessage(
      WidgetWire.encodeUpdateWidgetRequest(
        WidgetUpdate(id: id, content: ContentPatch(template: .value(PlainValuePatch(value: 0))))),
      valueKey: 1 << 3 | 1)
  }

  private init(_ bytes: [UInt8], valueKey: UInt8) {
    precondition(
      bytes.count > 9 && bytes[bytes.count - 9] == valueKey,
      "the encoded request does not end with its value")
    self.bytes = bytes
  }

  /// The message now carries `value`.
  public mutating func set(_ value: Double) {
    let offset = bytes.count - 8
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
    }
  }

  /// Writes the message with `value` to `destination`, which holds
  /// exactly `bytes.count` bytes.
  public func write(value: Double, to destination: UnsafeMutableRawBufferPointer) {
    precondition(destination.count == bytes.count, "the destination does not fit the message")
    bytes.withUnsafeBytes { destination.copyMemory(from: $0) }
    destination.storeBytes(
      of: value.bitPattern.littleEndian, toByteOffset: bytes.count - 8, as: UInt64.self)
  }
}
