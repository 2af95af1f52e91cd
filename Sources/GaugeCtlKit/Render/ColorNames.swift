/// The colours widgets name: SwiftUI's system colours (what the schema
/// allows by name) and hex `RRGGBB` / `RRGGBBAA` (alpha ignored here).
public enum ColorNames {
  static let system: [String: RGB] = [
    "red": RGB(255, 59, 48), "orange": RGB(255, 149, 0), "yellow": RGB(255, 204, 0),
    "green": RGB(52, 199, 89), "mint": RGB(0, 199, 190), "teal": RGB(48, 176, 199),
    "cyan": RGB(50, 173, 230), "blue": RGB(0, 122, 255), "indigo": RGB(88, 86, 214),
    "purple": RGB(175, 82, 222), "pink": RGB(255, 45, 85), "brown": RGB(162, 132, 94),
  ]

  /// A widget without an accent colour is drawn in SwiftUI's default tint.
  public static let defaultAccent = RGB(0, 122, 255)

  public static func rgb(_ text: String?) -> RGB? {
    guard let text else { return nil }
    if let named = system[text] { return named }
    var digits = Substring(text)
    if digits.hasPrefix("#") { digits = digits.dropFirst() }
    guard digits.count == 6 || digits.count == 8, let value = UInt32(digits.prefix(6), radix: 16)
    else { return nil }
    return RGB(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
  }

  /// The colour at `fraction` (0...1) along a gradient of stops.
  static func along(_ stops: [RGB], _ fraction: Double) -> RGB? {
    guard let first = stops.first else { return nil }
    guard stops.count > 1 else { return first }
    let position = min(max(fraction, 0), 1) * Double(stops.count - 1)
    let index = min(Int(position), stops.count - 2)
    return stops[index].mixed(with: stops[index + 1], position - Double(index))
  }
}
