/// Colours are the SwiftUI system colour names or hex `RRGGBB` / `RRGGBBAA`
/// with an optional leading `#`, which every dashboard client can render.
enum ColorRule {
  static let names = [
    "red", "orange", "yellow", "green", "blue", "purple", "pink", "indigo", "teal", "cyan",
    "mint", "brown",
  ]

  static func isValid(_ color: String) -> Bool {
    if names.contains(color) { return true }
    var digits = color.utf8[...]
    if digits.first == UInt8(ascii: "#") { digits = digits.dropFirst() }
    return (digits.count == 6 || digits.count == 8) && digits.allSatisfy(isHexDigit)
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
      UInt8(ascii: "A")...UInt8(ascii: "F"):
      true
    default:
      false
    }
  }
}

extension Violations {
  mutating func checkColor(_ color: String?, at field: @autoclosure () -> String) {
    guard let color, !ColorRule.isValid(color) else { return }
    let names = ColorRule.names.joined(separator: ", ")
    add(field(), "\(quoted(color)) is not a colour: use \(names), or hex RRGGBB / RRGGBBAA")
  }
}

/// A client's text echoed in a message, kept short so a huge value cannot
/// blow up the error.
func quoted(_ text: String) -> String {
  let limit = 64
  let scalars = text.unicodeScalars
  guard scalars.count > limit else { return "\"\(text)\"" }
  return "\"\(String(String.UnicodeScalarView(scalars.prefix(limit))))…\""
}
