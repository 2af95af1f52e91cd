/// The colours a widget is drawn in: its accent, its gradient if it has
/// one, and whether it is stale (then everything is dim and colourless, so
/// old data never looks live).
struct Tint {
  var accent: RGB
  var gradient: [RGB]
  var stale: Bool

  /// The emphasis for the value and filled cells at `fraction` of the way.
  func fill(at fraction: Double) -> TextStyle {
    guard !stale else { return .dimmed }
    return TextStyle(foreground: ColorNames.along(gradient, fraction) ?? accent, bold: true)
  }

  var strong: TextStyle { stale ? .dimmed : TextStyle(bold: true) }
  var value: TextStyle { stale ? .dimmed : TextStyle(foreground: accent, bold: true) }
  var normal: TextStyle { stale ? .dimmed : .plain }
  var track: TextStyle { .dimmed }
}
