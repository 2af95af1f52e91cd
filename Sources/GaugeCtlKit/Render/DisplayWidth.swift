/// How many terminal columns text takes: wide East Asian characters and
/// emoji take two, combining marks and zero-width characters none. An
/// approximation of wcwidth good enough for labels.
public enum DisplayWidth {
  public static func of(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + width($1) }
  }

  public static func width(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
      || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
      || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
      || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1F64F).contains(value)
      || (0x1F900...0x1F9FF).contains(value) || (0x20000...0x3FFFD).contains(value)
    {
      return 2
    }
    return 1
  }

  /// At most `columns` wide, ending in "…" when cut.
  public static func truncate(_ text: String, to columns: Int) -> String {
    guard columns > 0 else { return "" }
    guard of(text) > columns else { return text }
    var out = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      let width = width(scalar)
      if used + width > columns - 1 { break }
      out.append(scalar)
      used += width
    }
    return String(out) + "…"
  }

  /// `text` padded with spaces to `columns` (never cut).
  public static func pad(_ text: String, to columns: Int) -> String {
    text + String(repeating: " ", count: max(0, columns - of(text)))
  }
}
