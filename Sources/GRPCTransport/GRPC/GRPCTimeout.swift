/// The `grpc-timeout` header: 1 to 8 ASCII digits and a unit
/// (H hours, M minutes, S seconds, m milli-, u micro-, n nanoseconds).
enum GRPCTimeout {
  /// nil when the header is malformed.
  static func parse(_ text: some BidirectionalCollection<UInt8>) -> Duration? {
    guard let unit = text.last, text.count >= 2, text.count <= 9 else { return nil }
    var amount: Int64 = 0
    for byte in text.dropLast() {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      amount = amount * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    switch unit {
    case UInt8(ascii: "H"): return .seconds(amount * 3600)
    case UInt8(ascii: "M"): return .seconds(amount * 60)
    case UInt8(ascii: "S"): return .seconds(amount)
    case UInt8(ascii: "m"): return .milliseconds(amount)
    case UInt8(ascii: "u"): return .microseconds(amount)
    case UInt8(ascii: "n"): return .nanoseconds(amount)
    default: return nil
    }
  }
}
