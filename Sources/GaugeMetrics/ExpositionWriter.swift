/// Writes metric families in Prometheus' text format 0.0.4 or in
/// OpenMetrics 1.0. The two differ in a few places: OpenMetrics names a
/// counter's family without `_total`, escapes HELP like a label value, and
/// ends with `# EOF`.
public struct ExpositionWriter {
  public let format: ExpositionFormat

  public init(format: ExpositionFormat) {
    self.format = format
  }

  public func write(_ families: [MetricFamily]) -> String {
    var out = ""
    out.reserveCapacity(families.count * 256)
    for family in families { write(family, to: &out) }
    if format == .openMetrics { out += "# EOF\n" }
    return out
  }

  private func write(_ family: MetricFamily, to out: inout String) {
    let familyName: String
    let sampleName: String
    if family.kind == .counter, family.name.hasSuffix("_total") {
      sampleName = family.name
      familyName = format == .openMetrics ? String(family.name.dropLast(6)) : family.name
    } else {
      sampleName = family.name
      familyName = family.name
    }
    out += "# HELP \(familyName) \(escapeHelp(family.help))\n"
    out += "# TYPE \(familyName) \(family.kind.rawValue)\n"
    for series in family.series {
      switch series.value {
      case .number(let value):
        line(sampleName, series.labels, Self.number(value), to: &out)
      case .histogram(let histogram):
        let cumulative = histogram.cumulativeCounts
        // `le` as Swift's shortest form (`1.0`, `0.005`): OpenMetrics wants
        // a bound written as a float, and the text format takes it too.
        for (index, bound) in histogram.upperBounds.enumerated() {
          line(
            family.name + "_bucket", series.labels + [MetricLabel("le", String(bound))],
            String(cumulative[index]), to: &out)
        }
        line(
          family.name + "_bucket", series.labels + [MetricLabel("le", "+Inf")],
          String(cumulative[cumulative.count - 1]), to: &out)
        line(family.name + "_sum", series.labels, Self.number(histogram.sum), to: &out)
        line(family.name + "_count", series.labels, String(histogram.count), to: &out)
      }
    }
  }

  private func line(_ name: String, _ labels: [MetricLabel], _ value: String, to out: inout String)
  {
    out += name
    if !labels.isEmpty {
      out += "{"
      for (index, label) in labels.enumerated() {
        if index > 0 { out += "," }
        out += label.name
        out += "=\""
        out += Self.escapeLabelValue(label.value)
        out += "\""
      }
      out += "}"
    }
    out += " "
    out += value
    out += "\n"
  }

  /// The text format escapes only backslash and line feed in HELP;
  /// OpenMetrics escapes the double quote too, as in label values.
  private func escapeHelp(_ help: String) -> String {
    format == .openMetrics ? Self.escapeLabelValue(help) : Self.escape(help, quote: false)
  }

  static func escapeLabelValue(_ value: String) -> String {
    escape(value, quote: true)
  }

  private static func escape(_ text: String, quote: Bool) -> String {
    guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x0A || (quote && $0 == 0x22) }) else {
      return text
    }
    var out = ""
    for character in text.unicodeScalars {
      switch character {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\"" where quote: out += "\\\""
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// Whole numbers without a fraction (counts read better), the rest as
  /// Swift's shortest round-trip form; infinities and NaN as both formats
  /// spell them.
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 9e18 { return String(Int64(value)) }
    return String(value)
  }
}
