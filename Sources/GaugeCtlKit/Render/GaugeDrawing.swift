/// The graphic part of a widget, as styled text: pure functions of a
/// fraction and a width.
enum GaugeDrawing {
  /// `0 ━━━━━━━━●───────── 100`: a track with a needle at `fraction` (0...1)
  /// and the bounds' labels at the ends. A capacity gauge fills the track
  /// up to the needle; marks (fractions) show as `┼`.
  static func linear(
    fraction: Double, capacity: Bool, marks: [Double], minLabel: String, maxLabel: String,
    columns: Int, tint: Tint
  ) -> ScreenLine {
    var (left, right) = (minLabel, maxLabel)
    // Labels take their width plus a space each; below 8 track cells they go.
    func labelColumns(_ label: String) -> Int { label.isEmpty ? 0 : DisplayWidth.of(label) + 1 }
    if columns - labelColumns(left) - labelColumns(right) < 8 { (left, right) = ("", "") }
    let trackWidth = max(1, columns - labelColumns(left) - labelColumns(right))
    let needle = cell(fraction, trackWidth)
    let markCells = Set(marks.map { cell($0, trackWidth) })
    var cells: [Span] = []
    for index in 0..<trackWidth {
      let position = trackWidth > 1 ? Double(index) / Double(trackWidth - 1) : 0
      if index == needle {
        cells.append(Span("●", tint.fill(at: position)))
      } else if capacity && index < needle {
        cells.append(Span("━", tint.fill(at: position)))
      } else if markCells.contains(index) {
        cells.append(Span("┼", tint.track))
      } else {
        cells.append(Span("─", tint.track))
      }
    }
    var line: ScreenLine = []
    if !left.isEmpty { line.append(Span(left + " ", tint.normal)) }
    line += merged(cells)
    if !right.isEmpty { line.append(Span(" " + right, tint.normal)) }
    return line
  }

  /// `[██████░░░░░░]`-style progress, without brackets: `columns` cells.
  static func progress(fraction: Double, columns: Int, tint: Tint) -> ScreenLine {
    let width = max(1, columns)
    let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
    var cells: [Span] = []
    for index in 0..<width {
      let position = width > 1 ? Double(index) / Double(width - 1) : 0
      cells.append(index < filled ? Span("█", tint.fill(at: position)) : Span("░", tint.track))
    }
    return merged(cells)
  }

  /// Where `value` lies from `minValue` (0) to `maxValue` (1). Bounds as
  /// far apart as -1e308 and 1e308 overflow `maxValue - minValue` to
  /// infinity, which put every needle at the start; halved, they do not.
  static func fraction(of value: Double, from minValue: Double, to maxValue: Double) -> Double {
    let span = maxValue - minValue
    if span.isFinite { return (value - minValue) / span }
    return (value / 2 - minValue / 2) / (maxValue / 2 - minValue / 2)
  }

  /// A plain value's range: the value may lie outside its bounds (they
  /// never clamp it), so the marker then points off the end, `◀` or `▶`.
  static func range(
    value: Double, minValue: Double, maxValue: Double, columns: Int, tint: Tint
  ) -> ScreenLine {
    let fraction = fraction(of: value, from: minValue, to: maxValue)
    var line = linear(
      fraction: min(max(fraction, 0), 1), capacity: false, marks: [],
      minLabel: NumberText.format(minValue), maxLabel: NumberText.format(maxValue),
      columns: columns, tint: tint)
    if fraction < 0 || fraction > 1 {
      let arrow = fraction < 0 ? "◀" : "▶"
      line = line.map { span in
        span.text == "●" ? Span(arrow, span.style) : span
      }
    }
    return line
  }

  /// A 270° arc open at the bottom, like SwiftUI's circular gauges,
  /// `arcWidth` columns by `arcHeight` rows, with `center` written inside. A
  /// capacity arc fills up to `fraction`; the other marks the spot.
  static func arc(fraction: Double, capacity: Bool, center: String, tint: Tint) -> [ScreenLine] {
    let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    let needle = Int((clamped * Double(ring.count - 1)).rounded())
    var grid = [[Span]](
      repeating: [Span](repeating: Span(" "), count: arcWidth), count: arcHeight)
    for (index, cell) in ring.enumerated() {
      let position = Double(index) / Double(ring.count - 1)
      let filled = index == needle || (capacity && index < needle)
      grid[cell.row][cell.column] =
        filled ? Span("●", tint.fill(at: position)) : Span("·", tint.track)
    }
    // The value sits inside the ring, centred between its sides.
    let inner = arcWidth - 4
    let text = DisplayWidth.truncate(center, to: inner)
    let start = 2 + (inner - DisplayWidth.of(text)) / 2
    var column = start
    for character in text {
      let width = DisplayWidth.of(String(character))
      grid[2][column] = Span(String(character), tint.value)
      // A wide character covers the next cell too.
      if width == 2 { grid[2][column + 1] = Span("") }
      column += width
    }
    return grid.map(merged)
  }

  static let arcWidth = 11
  static let arcHeight = 4

  /// The ring's cells in sweep order, from the bottom left, up and over to
  /// the bottom right: terminal cells are about twice as tall as wide, so
  /// this reads as a circle.
  private static let ring: [(row: Int, column: Int)] =
    [(3, 2), (2, 1), (1, 1)] + (2...8).map { (0, $0) } + [(1, 9), (2, 9), (3, 8)]

  private static func cell(_ fraction: Double, _ width: Int) -> Int {
    guard fraction.isFinite else { return 0 }
    return Int((min(max(fraction, 0), 1) * Double(width - 1)).rounded())
  }

  /// Neighbouring cells of the same style become one span.
  private static func merged(_ cells: [Span]) -> ScreenLine {
    var out: ScreenLine = []
    for cell in cells {
      if let last = out.last, last.style == cell.style {
        out[out.count - 1].text += cell.text
      } else {
        out.append(cell)
      }
    }
    return out
  }
}
