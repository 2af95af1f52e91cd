import GaugeDomain

/// Enum values by name, as in the schema (`ACCESSORY_CIRCULAR`, `UP`).
/// Input is forgiving about case, `_` and `-` (`accessory-circular`,
/// `accessoryCircular`); a number passes through as it is, so the server
/// can judge unknown ones.
enum EnumNames {
  static let styles: [(GaugeStyle, String)] = GaugeStyle.allCases.map {
    ($0, $0.schemaName.uppercased())
  }

  static let trends: [(Trend, String)] = [
    (.unspecified, "TREND_UNSPECIFIED"), (.up, "UP"), (.down, "DOWN"), (.flat, "FLAT"),
  ]

  static func name(of style: GaugeStyle) -> String {
    styles.first { $0.0 == style }!.1
  }

  static func name(of trend: Trend) -> String {
    trends.first { $0.0 == trend }!.1
  }

  /// The raw number for a style name or number, nil when unknown.
  static func style(_ text: String) -> Int32? {
    if let number = Int32(text) { return number }
    return styles.first { normalized($0.1) == normalized(text) }?.0.rawValue
  }

  static func trend(_ text: String) -> Int32? {
    if let number = Int32(text) { return number }
    let key = normalized(text)
    if key == "unspecified" || key == "none" { return Trend.unspecified.rawValue }
    return trends.first { normalized($0.1) == key }?.0.rawValue
  }

  static var styleList: String { styles.map { $0.1.lowercased() }.joined(separator: ", ") }
  static var trendList: String { "up, down, flat" }

  private static func normalized(_ text: String) -> String {
    String(text.lowercased().filter { $0 != "_" && $0 != "-" })
  }
}
