/// Icons are SF Symbol-style names (`chart.line.uptrend.xyaxis`) or Material
/// Design Icons (`mdi:thermometer-high`), the two families clients ship.
enum IconRule {
  static let maxLength = 128

  static func isValid(_ icon: String) -> Bool {
    let bytes = icon.utf8
    let mdiPrefix = "mdi:".utf8
    if bytes.starts(with: mdiPrefix) {
      return isSeparated(bytes.dropFirst(mdiPrefix.count), by: UInt8(ascii: "-"))
    }
    return isSeparated(bytes[...], by: UInt8(ascii: "."))
  }

  /// Non-empty runs of `[a-z0-9]` joined by single separators.
  private static func isSeparated(_ bytes: Substring.UTF8View, by separator: UInt8) -> Bool {
    var previousWasSeparator = true
    for byte in bytes {
      if byte == separator {
        if previousWasSeparator { return false }
        previousWasSeparator = true
      } else if isLowercaseAlphanumeric(byte) {
        previousWasSeparator = false
      } else {
        return false
      }
    }
    return !previousWasSeparator
  }

  private static func isLowercaseAlphanumeric(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
    default: false
    }
  }
}

extension Violations {
  mutating func checkIcon(_ icon: String?, at field: @autoclosure () -> String) {
    guard let icon else { return }
    let length = icon.unicodeScalars.count
    if length > IconRule.maxLength {
      add(field(), "must be at most \(IconRule.maxLength) characters, got \(length)")
    } else if !IconRule.isValid(icon) {
      let families = "an SF Symbol name like \"chart.line.uptrend.xyaxis\" or \"mdi:<name>\""
      add(field(), "\(quoted(icon)) is not an icon: use \(families)")
    }
  }
}
