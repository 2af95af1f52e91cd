import GaugeDomain

/// `gaugectl put ID --gauge 42 --min 0 --max 100 --unit % ...`: the flags
/// that describe a widget, and the PutWidget request they make. Values are
/// passed as given; the server's rules judge them.
enum WidgetFlags {
  static let templateFlags: [FlagSpec] = [
    FlagSpec("gauge"), FlagSpec("progress"), FlagSpec("value"),
  ]

  static let specs: [FlagSpec] =
    templateFlags + [
      FlagSpec("min"), FlagSpec("max"), FlagSpec("name"), FlagSpec("unit"), FlagSpec("label"),
      FlagSpec("subtitle"), FlagSpec("icon"), FlagSpec("accent"), FlagSpec("background"),
      FlagSpec("text-color"), FlagSpec("trend"), FlagSpec("style"),
      FlagSpec("mark", repeatable: true), FlagSpec("gradient"), FlagSpec("min-label"),
      FlagSpec("max-label"), FlagSpec("value-label"), FlagSpec("stale-after"),
    ]

  /// The flags that only make sense for a gauge.
  private static let gaugeOnly = [
    "style", "mark", "gradient", "min-label", "max-label", "value-label",
  ]

  /// Whether any widget-describing flag is present.
  static func anyGiven(in arguments: Arguments) -> Bool {
    specs.contains { arguments.has($0.name) }
  }

  static func put(id: String, _ arguments: Arguments) throws(CLIError) -> WidgetPut {
    let given = templateFlags.filter { arguments.has($0.name) }.map(\.name)
    guard given.count == 1, let template = given.first else {
      throw .usage(
        given.isEmpty
          ? "put needs one of --gauge VALUE, --progress FRACTION, --value VALUE, or -f FILE"
          : "put takes one template, got " + given.map { "--\($0)" }.joined(separator: " and "))
    }
    if template != "gauge", let flag = gaugeOnly.first(where: { arguments.has($0) }) {
      throw .usage("--\(flag) applies to --gauge only")
    }
    if template == "progress", arguments.has("min") || arguments.has("max") {
      throw .usage("--min and --max apply to --gauge and --value, not --progress")
    }
    let value = try arguments.number(template)
    let minValue = try arguments.number("min")
    let maxValue = try arguments.number("max")
    let templatePatch: TemplatePatch
    switch template {
    case "gauge":
      var style: Int32?
      if let text = arguments.value("style") {
        guard let parsed = EnumNames.style(text) else {
          throw .usage("--style: \"\(text)\" is not one of \(EnumNames.styleList)")
        }
        style = parsed
      }
      let marks = try arguments.values("mark").map { text throws(CLIError) in try mark(text) }
      let gradient = try arguments.value("gradient").map { text throws(CLIError) in
        try Self.colourList(text)
      }
      templatePatch = .gauge(
        GaugePatch(
          value: value, minValue: minValue, maxValue: maxValue, style: style, gradient: gradient,
          marks: marks.isEmpty ? nil : marks, currentValueLabel: arguments.value("value-label"),
          minLabel: arguments.value("min-label"), maxLabel: arguments.value("max-label")))
    case "progress":
      templatePatch = .progress(ProgressPatch(value: value))
    default:
      templatePatch = .value(PlainValuePatch(value: value, minValue: minValue, maxValue: maxValue))
    }
    var trend: Int32?
    if let text = arguments.value("trend") {
      guard let parsed = EnumNames.trend(text) else {
        throw .usage("--trend: \"\(text)\" is not one of \(EnumNames.trendList)")
      }
      trend = parsed
    }
    var staleAfterMs: Int64?
    if let text = arguments.value("stale-after") {
      guard let duration = DurationText.parse(text) else {
        throw .usage("--stale-after: \"\(text)\" is not a duration (500ms, 30s, 5m, 1h, 7d)")
      }
      // Under 10^12 ms, as DurationText reads it: exact in an Int64.
      staleAfterMs = Int64(duration / .milliseconds(1))
    }
    return WidgetPut(
      id: id, name: arguments.value("name"),
      content: ContentPatch(
        template: templatePatch, label: arguments.value("label"),
        subtitle: arguments.value("subtitle"), icon: arguments.value("icon"),
        unit: arguments.value("unit"), trend: trend, accentColor: arguments.value("accent"),
        backgroundColor: arguments.value("background"), textColor: arguments.value("text-color")),
      staleAfterMs: staleAfterMs)
  }

  /// `red,,blue` is a mistake, not two colours: an empty entry is refused
  /// rather than dropped. The server judges the colours and their count.
  private static func colourList(_ text: String) throws(CLIError) -> [String] {
    let colours = text.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0.trimmingASCII(where: { $0 == UInt8(ascii: " ") }))
    }
    if let empty = colours.firstIndex(of: "") {
      throw .usage("--gradient: colour \(empty + 1) of \(colours.count) is empty (\"\(text)\")")
    }
    return colours
  }

  /// `80` or `80:hot`.
  private static func mark(_ text: String) throws(CLIError) -> MarkPatch {
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard let value = Double(String(parts[0])) else {
      throw .usage("--mark: \"\(text)\" is not VALUE or VALUE:LABEL")
    }
    return MarkPatch(value: value, label: parts.count > 1 ? String(parts[1]) : nil)
  }
}
