/// Numbers for people: whole numbers as integers, others with about four
/// significant digits (at most six decimals), trailing zeros dropped.
public enum NumberText {
  public static func format(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
    let magnitude = abs(value)
    // Too large for fixed digits, or so small that six decimals would show
    // a value that is not zero as 0.
    if magnitude >= 1e15 || (magnitude > 0 && magnitude < 5e-7) { return "\(value)" }
    var decimals = 0
    if magnitude > 0, magnitude < 1000 {
      var scale = 1.0
      while decimals < 6, magnitude * scale < 1000 {
        scale *= 10
        decimals += 1
      }
    }
    return fixed(value, decimals: decimals)
  }

  /// `value` rounded to `decimals` places, trailing zeros dropped.
  public static func fixed(_ value: Double, decimals: Int) -> String {
    var power: Int64 = 1
    for _ in 0..<decimals { power *= 10 }
    let scaled = (abs(value) * Double(power)).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let units = Int64(scaled)
    var text = String(units / power)
    var fraction = String(units % power)
    if decimals > 0 {
      fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      if !fraction.isEmpty { text += "." + fraction }
    }
    return (value < 0 && units != 0 ? "-" : "") + text
  }

  /// The value with its unit: `42 %`, `3.5 GB`; no unit, no space.
  public static func withUnit(_ value: Double, _ unit: String?) -> String {
    guard let unit, !unit.isEmpty else { return format(value) }
    return format(value) + " " + unit
  }
}
