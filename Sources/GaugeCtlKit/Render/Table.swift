/// A plain text table: a header row and left-aligned columns separated by
/// two spaces, trailing spaces trimmed.
public struct Table {
  public var header: [String]
  public var rows: [[String]] = []

  public init(header: [String]) {
    self.header = header
  }

  public var text: String {
    let all = [header] + rows
    let widths = header.indices.map { column in
      all.map { DisplayWidth.of($0[column]) }.max() ?? 0
    }
    return all.map { row in
      var line = ""
      for (column, cell) in row.enumerated() {
        line += column == row.count - 1 ? cell : DisplayWidth.pad(cell, to: widths[column]) + "  "
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }.joined(separator: "\n") + "\n"
  }
}
