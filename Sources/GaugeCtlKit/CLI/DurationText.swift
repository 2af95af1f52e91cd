/// Durations on the command line: `500ms`, `5s`, `2m`, `1h`, `30d`, or a plain
/// number of seconds (`1.5`).
enum DurationText {
  static func parse(_ text: String) -> Duration? {
    let units: [(suffix: String, seconds: Double)] = [
      ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400),
    ]
    var number = text
    var scale = 1.0
    for unit in units where text.hasSuffix(unit.suffix) {
      number = String(text.dropLast(unit.suffix.count))
      scale = unit.seconds
      break
    }
    // Plain decimals only: Double also reads 0x1p3, 1e3 and +5.
    guard number.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (48...57).contains($0) }),
      number.utf8.contains(where: { (48...57).contains($0) }),
      let amount = Double(number), amount.isFinite, amount > 0
    else { return nil }
    let milliseconds = (amount * scale * 1000).rounded(.up)
    guard milliseconds < 1e12 else { return nil }
    return .milliseconds(Int64(milliseconds))
  }
}
