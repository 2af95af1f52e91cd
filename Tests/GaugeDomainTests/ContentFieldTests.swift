import Testing

@testable import GaugeDomain

@Suite struct ContentFieldTests {
  static let colourNames = [
    "red", "orange", "yellow", "green", "blue", "purple", "pink", "indigo", "teal", "cyan",
    "mint", "brown",
  ]

  func content(_ edit: (inout ContentPatch) -> Void) -> ContentPatch {
    var draft = gaugeDraft()
    edit(&draft)
    return draft
  }

  @Test func aTemplateIsRequired() {
    #expect(
      contentViolations(ContentPatch(label: "x")) == [
        violation("content", "a template (gauge, progress or value) is required")
      ])
  }

  @Test func sharedFieldsAreKeptAsGiven() throws {
    let resolved = try Content(
      validating: content {
        $0.label = "CPU"
        $0.subtitle = ""
        $0.icon = "cpu"
        $0.unit = "%"
        $0.trend = Trend.up.rawValue
        $0.accentColor = "teal"
        $0.backgroundColor = "#000000"
        $0.textColor = "FFFFFFCC"
      })
    #expect(
      resolved
        == Content(
          template: .gauge(Gauge(value: 3, minValue: 0, maxValue: 5)), label: "CPU", subtitle: "",
          icon: "cpu", unit: "%", trend: .up, accentColor: "teal", backgroundColor: "#000000",
          textColor: "FFFFFFCC"))
  }

  @Test func unitCountsCharactersNotBytes() throws {
    _ = try Content(validating: content { $0.unit = repeated("°", 32) })
    #expect(
      contentViolations(content { $0.unit = repeated("°", 33) }) == [
        violation("content.unit", "must be at most 32 characters, got 33")
      ])
  }

  @Test func freeTextRefusesNUL() {
    // Nothing downstream keeps a NUL (protobuf-c's strings end there), so a
    // stored "a\0b" would come back as "a": refused, never cut short.
    #expect(
      contentViolations(
        content {
          $0.label = "a\u{0}b"
          $0.unit = "\u{0}"
          $0.template = .gauge(GaugePatch(value: 3, minValue: 0, maxValue: 5, minLabel: "lo\u{0}"))
        }) == [
          violation("content.gauge.min_label", "must not contain NUL (U+0000)"),
          violation("content.label", "must not contain NUL (U+0000)"),
          violation("content.unit", "must not contain NUL (U+0000)"),
        ])
  }

  @Test func labelAndSubtitleAreLimitedTo256Characters() throws {
    _ = try Content(
      validating: content {
        $0.label = repeated("日", 256)
        $0.subtitle = repeated("日", 256)
      })
    #expect(
      contentViolations(
        content {
          $0.label = repeated("日", 257)
          $0.subtitle = repeated("a", 300)
        }) == [
          violation("content.label", "must be at most 256 characters, got 257"),
          violation("content.subtitle", "must be at most 256 characters, got 300"),
        ])
  }

  @Test(arguments: [
    "chart.line.uptrend.xyaxis", "flame", "0.circle", "mdi:thermometer-high", "mdi:a1",
    "a" + repeated(".b", 63) + "c",
  ])
  func iconsInEitherFamilyAreAccepted(icon: String) throws {
    #expect(try Content(validating: content { $0.icon = icon }).icon == icon)
  }

  @Test(arguments: [
    "", "Chart", "chart..line", ".chart", "chart.", "chart line", "chart-line", "mdi:",
    "mdi:Thermo", "mdi:a--b", "mdi:a-", "mdi:-a", "mdi:a.b", "MDI:a", "sf:chart",
  ])
  func iconsOutsideBothFamiliesAreRejected(icon: String) {
    let found = contentViolations(content { $0.icon = icon })
    #expect(fields(found) == ["content.icon"])
    #expect(found.first?.description.contains("is not an icon") == true)
  }

  @Test func iconsAreLimitedTo128Characters() throws {
    _ = try Content(validating: content { $0.icon = repeated("a", 128) })
    #expect(
      contentViolations(content { $0.icon = repeated("a", 129) }) == [
        violation("content.icon", "must be at most 128 characters, got 129")
      ])
  }

  @Test(arguments: colourNames + ["#ff0000", "ff0000", "FF0000AA", "#a1B2c3d4", "000000"])
  func coloursAreNamesOrHex(colour: String) throws {
    let resolved = try Content(
      validating: content {
        $0.accentColor = colour
        $0.backgroundColor = colour
        $0.textColor = colour
      })
    #expect(resolved.accentColor == colour)
    #expect(resolved.backgroundColor == colour)
    #expect(resolved.textColor == colour)
  }

  @Test(arguments: [
    "", "Red", "RED", "magenta", "#", "#fff", "ff00000", "#ff00000", "gg0000", "##ff0000",
    "ff0000a", "#ff0000aa00", " red",
  ])
  func otherColoursAreRejectedInEveryColourField(colour: String) {
    let found = contentViolations(
      content {
        $0.accentColor = colour
        $0.backgroundColor = colour
        $0.textColor = colour
      })
    #expect(
      fields(found) == ["content.accent_color", "content.background_color", "content.text_color"])
    #expect(found.allSatisfy { $0.description.contains("is not a colour") })
  }

  @Test func trendAcceptsKnownValuesAndDefaultsToUnspecified() throws {
    #expect(try Content(validating: gaugeDraft()).trend == .unspecified)
    for trend in Trend.allCases {
      #expect(try Content(validating: content { $0.trend = trend.rawValue }).trend == trend)
    }
  }

  @Test(arguments: [4, -1] as [Int32])
  func anUnknownTrendIsRejected(trend: Int32) {
    #expect(
      contentViolations(content { $0.trend = trend }) == [
        violation("content.trend", "\(trend) is not a known Trend (0 to 3)")
      ])
  }

  @Test func problemsInTemplateAndSharedFieldsAreReportedTogether() {
    var draft = gaugeDraft(value: 9)
    draft.unit = repeated("x", 33)
    draft.accentColor = "sky"
    #expect(
      fields(contentViolations(draft)) == [
        "content.gauge.value", "content.unit", "content.accent_color",
      ])
  }

  @Test func errorMessageJoinsEveryViolation() {
    let error = WidgetError.invalid(contentViolations(gaugeDraft(value: 9, style: 50)))
    #expect(
      error.message
        == "content.gauge.value: 9 is outside [0, 5]; "
        + "content.gauge.style: 50 is not a known GaugeStyle (0 to 7)"
    )
  }

  @Test func longInputIsShortenedWhenEchoed() {
    let found = contentViolations(content { $0.accentColor = repeated("z", 500) })
    let echoed = "\"\(repeated("z", 64))…\" is not a colour"
    #expect(found.first?.description.hasPrefix(echoed) == true)
  }
}
