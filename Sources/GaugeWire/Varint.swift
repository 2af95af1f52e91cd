/// Protobuf's base-128 varint: seven bits a byte, least significant group
/// first, the high bit set on every byte but the last. Written by
/// `WireWriter` and by the store's value log, which packs its rows the
/// same way.
public enum Varint {
  /// Bytes `value` takes; zero still takes one.
  @inlinable public static func size(_ value: UInt64) -> Int {
    (64 - (value | 1).leadingZeroBitCount + 6) / 7
  }

  /// Hands `value`'s bytes to `put`, in order.
  @inlinable public static func write(_ value: UInt64, _ put: (UInt8) -> Void) {
    var rest = value
    while rest >= 0x80 {
      put(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    put(UInt8(rest))
  }
}
