/// The `grpc-timeout` header: 1 to 8 ASCII digits and a unit
/// (H hours, M minutes, S seconds, m milli-, u micro-, n nanoseconds).
package enum GRPCTimeout {
  /// nil when the header is malformed.
  package static func parse(_ text: some BidirectionalCollection<UInt8>) -> Duration? {
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

  /// The header value for `duration`: the finest unit whose amount fits in
  /// the 8 digits allowed, rounded up so a deadline never arrives early.
  /// Zero or negative durations encode as `0n` (already expired).
  package static func encode(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, seconds > 0 || attoseconds > 0 else { return "0n" }
    let maxAmount: Int64 = 99_999_999
    // Nanoseconds as a wide value: seconds may be large.
    let nanoseconds =
      (Int128(seconds) * 1_000_000_000) + Int128((attoseconds + 999_999_999) / 1_000_000_000)
    let units: [(divisor: Int128, symbol: String)] = [
      (1, "n"), (1_000, "u"), (1_000_000, "m"), (1_000_000_000, "S"),
      (60_000_000_000, "M"), (3_600_000_000_000, "H"),
    ]
    for unit in units {
      let amount = (nanoseconds + unit.divisor - 1) / unit.divisor
      if amount <= Int128(maxAmount) { return "\(amount)\(unit.symbol)" }
    }
    return "\(maxAmount)H"
  }
}
