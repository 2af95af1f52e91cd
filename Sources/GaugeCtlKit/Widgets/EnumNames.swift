import GaugeDomain

/// Enum values by name for flags and gaugectl's older JSON shapes, which
/// are forgiving about case, `_` and `-` (`ACCESSORY_CIRCULAR`,
/// `accessory-circular`, `accessoryCircular` all name the schema's
/// `accessory_circular`); a number passes through as it is, so the server
/// can judge unknown ones.
enum EnumNames {
  /// The raw number for a style name or number, nil when unknown.
  static func style(_ text: String) -> Int32? {
    if let number = Int32(text) { return number }
    let key = normalized(text)
    return GaugeStyle.allCases.first { normalized($0.schemaName) == key }?.rawValue
  }

  /// `TREND_UNSPECIFIED` is the proto's name for no trend.
  static func trend(_ text: String) -> Int32? {
    if let number = Int32(text) { return number }
    let key = normalized(text)
    if key == "trendunspecified" || key == "none" { return Trend.unspecified.rawValue }
    return Trend.allCases.first { normalized($0.schemaName) == key }?.rawValue
  }

  static var styleList: String { GaugeStyle.allCases.map(\.schemaName).joined(separator: ", ") }
  static var trendList: String { "up, down, flat" }

  private static func normalized(_ text: String) -> String {
    String(text.lowercased().filter { $0 != "_" && $0 != "-" })
  }
}
