import GaugeDomain
import GaugeWire
import Testing

@testable import GaugeCtlKit

private let tint = Tint(accent: RGB(255, 149, 0), gradient: [], stale: false)

private func widget(
  _ id: String, name: String = "", _ template: Template, unit: String? = nil,
  label: String? = nil, subtitle: String? = nil, trend: Trend = .unspecified,
  accent: String? = nil, updatedAtMs: Int64 = 1_000_000
) -> Widget {
  Widget(
    id: id, name: name,
    content: Content(
      template: template, label: label, subtitle: subtitle, unit: unit, trend: trend,
      accentColor: accent),
    revision: 1, createdAtMs: 0, updatedAtMs: updatedAtMs)
}

private func liveModel(_ widgets: [Widget]) -> WatchModel {
  var model = WatchModel()
  for widget in widgets { model.apply(.upsert(widget)) }
  model.apply(.synced(revision: 99))
  return model
}

@Suite struct GaugeDrawingTests {
  @Test func linearCapacityFillsUpToTheNeedleBetweenItsLabels() {
    let line = GaugeDrawing.linear(
      fraction: 0.5, capacity: true, marks: [], minLabel: "0", maxLabel: "100", columns: 21,
      tint: tint)
    #expect(line.plainText == "0 ━━━━━━━●─────── 100")
    #expect(line.width == 21)
    #expect(line.first { $0.text.contains("━") }?.style.foreground == RGB(255, 149, 0))
  }

  @Test func linearWithoutCapacityMarksOnlyTheValueAndShowsMarks() {
    let line = GaugeDrawing.linear(
      fraction: 0.25, capacity: false, marks: [0.75], minLabel: "lo", maxLabel: "hi",
      columns: 20, tint: tint)
    #expect(line.plainText == "lo ───●──────┼─── hi")
  }

  @Test func narrowBarsDropTheirLabels() {
    let line = GaugeDrawing.linear(
      fraction: 1, capacity: true, marks: [], minLabel: "minimum", maxLabel: "maximum",
      columns: 12, tint: tint)
    #expect(line.plainText == "━━━━━━━━━━━●")
  }

  @Test func progressAndOutOfRangeValues() {
    #expect(GaugeDrawing.progress(fraction: 0.25, columns: 8, tint: tint).plainText == "██░░░░░░")
    let above = GaugeDrawing.range(value: 50, minValue: 0, maxValue: 10, columns: 14, tint: tint)
    #expect(above.plainText == "0 ────────▶ 10")
    let below = GaugeDrawing.range(value: -1, minValue: 0, maxValue: 10, columns: 14, tint: tint)
    #expect(below.plainText == "0 ◀──────── 10")
  }

  @Test(arguments: [
    (0.0, true, ["  ·······  ", " ·       · ", " ·   0   · ", "  ●     ·  "]),
    (0.5, true, ["  ●●●●···  ", " ●       · ", " ●  50   · ", "  ●     ·  "]),
    (1.0, true, ["  ●●●●●●●  ", " ●       ● ", " ●  100  ● ", "  ●     ●  "]),
    (0.5, false, ["  ···●···  ", " ·       · ", " ·  50   · ", "  ·     ·  "]),
  ])
  func circularArcs(fraction: Double, capacity: Bool, rows: [String]) {
    let arc = GaugeDrawing.arc(
      fraction: fraction, capacity: capacity,
      center: NumberText.format(fraction * 100), tint: tint)
    #expect(arc.map(\.plainText) == rows)
  }
}

@Suite struct ScreenRendererTests {
  let size = ScreenRenderer.Size(columns: 40, rows: 20)

  @Test func aLinearGaugeCard() {
    let cpu = widget(
      "cpu", name: "CPU", .gauge(Gauge(value: 25, minValue: 0, maxValue: 100)), unit: "%",
      label: "load", subtitle: "all cores", trend: .up)
    let lines = CardRenderer.lines(for: cpu, columns: 40, nowMs: 1_042_000, stale: false)
    #expect(
      lines.map(\.plainText) == [
        "CPU  cpu                          ↑ 25 %",
        "0 ━━━━━━━━●───────────────────────── 100",
        "load — all cores         updated 42s ago",
      ])
  }

  @Test func staleCardsLoseTheirColourAndSaySo() {
    let cpu = widget(
      "cpu", .gauge(Gauge(value: 25, minValue: 0, maxValue: 100)), accent: "red")
    let fresh = CardRenderer.lines(for: cpu, columns: 40, nowMs: 1_005_000, stale: false)
    let stale = CardRenderer.lines(for: cpu, columns: 40, nowMs: 1_005_000, stale: true)
    #expect(fresh.joined().contains { $0.style.foreground == RGB(255, 59, 48) })
    #expect(!stale.joined().contains { $0.style.foreground != nil })
    #expect(stale.last?.plainText.hasSuffix("stale · updated 5s ago") == true)
    #expect(fresh.last?.plainText.hasSuffix("updated 5s ago") == true)
  }

  @Test func headerTellsLiveFromReconnecting() {
    var model = liveModel([])
    #expect(
      ScreenRenderer.frame(model, ids: [], size: size, nowMs: 0, interactive: true)[0].plainText
        == "gaugectl watch · 0 widgets · live")
    #expect(
      ScreenRenderer.frame(
        model, ids: [], size: ScreenRenderer.Size(columns: 50, rows: 5), nowMs: 0,
        interactive: true)[0].plainText
        == "gaugectl watch · 0 widgets · live          q quits")
    model.connectionLost(reason: "connection refused")
    model.connecting()
    let header = ScreenRenderer.frame(model, ids: [], size: size, nowMs: 0, interactive: false)[0]
    #expect(header.plainText == "gaugectl watch · 0 widgets · reconnecti…")
    let wide = ScreenRenderer.frame(
      model, ids: [], size: ScreenRenderer.Size(columns: 80, rows: 5), nowMs: 0,
      interactive: false)
    #expect(
      wide[0].plainText
        == "gaugectl watch · 0 widgets · reconnecting: connection refused")
    model.connectionLost(reason: "connection refused")
    model.connecting()
    let later = ScreenRenderer.frame(
      model, ids: [], size: ScreenRenderer.Size(columns: 80, rows: 5), nowMs: 0,
      interactive: false)
    #expect(
      later[0].plainText
        == "gaugectl watch · 0 widgets · reconnecting (attempt 2): connection refused")
    // Never synced: nothing to get back to yet.
    var fresh = WatchModel()
    fresh.connecting()
    fresh.connectionLost(reason: "connection refused")
    fresh.connecting()
    #expect(
      ScreenRenderer.header(fresh, count: 0, columns: 80, interactive: false).plainText
        == "gaugectl watch · 0 widgets · connecting (attempt 2): connection refused")
  }

  @Test func widgetsThatDoNotFitAreCounted() {
    let widgets = (1...5).map { widget("w\($0)", .progress(Progress(value: 0.5))) }
    let frame = ScreenRenderer.frame(
      liveModel(widgets), ids: [], size: ScreenRenderer.Size(columns: 30, rows: 10), nowMs: 0,
      interactive: false)
    #expect(frame.count <= 10)
    #expect(frame.allSatisfy { $0.width <= 30 })
    #expect(frame.map(\.plainText).last == "… 4 more widgets below (a tal…")
  }

  @Test func everyLineFitsItsWidth() {
    let widgets = [
      widget(
        "g", name: String(repeating: "long name ", count: 10),
        .gauge(Gauge(value: 1, minValue: 0, maxValue: 2, style: .accessoryCircular)),
        unit: "widgets per second", label: "表示ラベル", subtitle: "😀 subtitle"),
      widget("p", .progress(Progress(value: 0.3))),
      widget("v", .value(PlainValue(value: 5, minValue: 0))),
      widget("r", .value(PlainValue(value: 5, minValue: 0, maxValue: 4)), trend: .down),
    ]
    for columns in [20, 33, 41, 80, 132] {
      let frame = ScreenRenderer.frame(
        liveModel(widgets), ids: [], size: ScreenRenderer.Size(columns: columns, rows: 60),
        nowMs: 99_000_000, interactive: true)
      for line in frame {
        #expect(line.width <= columns, "\(columns): \(line.plainText)")
      }
    }
  }
}

@Suite struct PaletteTests {
  let line: ScreenLine = [
    Span("a"), Span("b", TextStyle(foreground: RGB(255, 149, 0), bold: true)),
    Span("c", .dimmed),
  ]

  @Test func plainHasNoEscapes() {
    #expect(Palette(.plain).render(line) == "abc")
  }

  @Test func colourModes() {
    #expect(
      Palette(.trueColor).render(line) == "a\u{1B}[1;38;2;255;149;0mb\u{1B}[0m\u{1B}[2mc\u{1B}[0m")
    #expect(Palette(.ansi256).render(line) == "a\u{1B}[1;38;5;208mb\u{1B}[0m\u{1B}[2mc\u{1B}[0m")
    #expect(Palette.cubeIndex(RGB(0, 0, 0)) == 16)
    #expect(Palette.cubeIndex(RGB(255, 255, 255)) == 231)
  }

  @Test func detection() {
    #expect(ColorMode.detect(environment: [:], isTerminal: false) == .plain)
    #expect(ColorMode.detect(environment: ["NO_COLOR": "1"], isTerminal: true) == .plain)
    #expect(ColorMode.detect(environment: ["NO_COLOR": ""], isTerminal: true) == .ansi256)
    #expect(ColorMode.detect(environment: ["TERM": "dumb"], isTerminal: true) == .plain)
    #expect(
      ColorMode.detect(environment: ["COLORTERM": "truecolor"], isTerminal: true) == .trueColor)
  }

  @Test func colourNames() {
    #expect(ColorNames.rgb("orange") == RGB(255, 149, 0))
    #expect(ColorNames.rgb("#102030") == RGB(16, 32, 48))
    #expect(ColorNames.rgb("10203040") == RGB(16, 32, 48))
    #expect(ColorNames.rgb("nope") == nil)
    #expect(ColorNames.along([RGB(0, 0, 0), RGB(200, 100, 0)], 0.5) == RGB(100, 50, 0))
  }
}

@Suite struct TextFormattingTests {
  @Test func numbers() {
    #expect(NumberText.format(42) == "42")
    #expect(NumberText.format(42.5) == "42.5")
    #expect(NumberText.format(-0.25) == "-0.25")
    #expect(NumberText.format(0.123456) == "0.1235")
    #expect(NumberText.format(1234.5) == "1235")
    // Not zero, so never shown as 0.
    #expect(NumberText.format(-0.0000001) == "-1e-07")
    #expect(NumberText.format(.leastNonzeroMagnitude) == "5e-324")
    #expect(NumberText.format(0.0000006) == "0.000001")
    #expect(NumberText.withUnit(3, "GB") == "3 GB")
    #expect(NumberText.withUnit(3, "") == "3")
  }

  @Test func ages() {
    #expect(RelativeTime.ago(fromMs: 1000, nowMs: 500) == "just now")
    #expect(RelativeTime.ago(fromMs: 0, nowMs: 42_999) == "42s ago")
    #expect(RelativeTime.ago(fromMs: 0, nowMs: 125_000) == "2m 5s ago")
    #expect(RelativeTime.ago(fromMs: 0, nowMs: 3_720_000) == "1h 2m ago")
    #expect(RelativeTime.ago(fromMs: 0, nowMs: 90_000_000) == "1d 1h ago")
    // Any Int64s, without trapping on the subtraction.
    #expect(RelativeTime.ago(fromMs: .max, nowMs: .min) == "just now")
    #expect(RelativeTime.ago(fromMs: .min, nowMs: .max).hasSuffix("h ago"))
  }

  @Test func boundsAsFarApartAsDoublesGoStillPlaceTheNeedle() {
    #expect(GaugeDrawing.fraction(of: 0, from: -1e308, to: 1e308) == 0.5)
    #expect(GaugeDrawing.fraction(of: 1e308, from: -1e308, to: 1e308) == 1)
    #expect(GaugeDrawing.fraction(of: 5, from: 0, to: 10) == 0.5)
  }

  @Test func timestamps() {
    #expect(Timestamp.utc(ms: 0) == "1970-01-01 00:00:00 UTC")
    #expect(Timestamp.utc(ms: 1_709_210_096_000) == "2024-02-29 12:34:56 UTC")
    #expect(Timestamp.utc(ms: -1000) == "1969-12-31 23:59:59 UTC")
  }

  @Test func widthsAndTables() {
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("表示") == 4)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.truncate("abcdef", to: 4) == "abc…")
    #expect(DisplayWidth.truncate("表示ラベル", to: 5) == "表示…")
    var table = Table(header: ["ID", "VALUE"])
    table.rows = [["cpu", "42 %"], ["表示", ""]]
    #expect(table.text == "ID    VALUE\ncpu   42 %\n表示\n")
  }
}

/// Widget text is someone else's: it must not reach the terminal as codes.
@Suite struct ControlCharacterTests {
  @Test func escapesC0C1AndDeleteButKeepsTabsAndLineFeeds() {
    #expect(
      "L\u{1B}[2J\u{7}\r\u{7F}\u{9B}31m\tok\n".escapingControlCharacters
        == "L\\x1B[2J\\x07\\x0D\\x7F\\x9B31m\tok\n")
    #expect("plain · wide 🙂 עברית".escapingControlCharacters == "plain · wide 🙂 עברית")
  }

  @Test(arguments: [ColorMode.plain, .trueColor])
  func paletteOutputCarriesNoCodesFromTheData(mode: ColorMode) {
    let line: ScreenLine = [Span("L\u{1B}]0;pwned\u{7}", TextStyle(bold: true))]
    let rendered = Palette(mode).render(line)
    #expect(rendered.contains("L\\x1B]0;pwned\\x07"))
    #expect(!rendered.contains("\u{7}"))
    #expect(!rendered.contains("\u{1B}]"))
  }
}

@Suite struct StaleWidgetTextTests {
  private func stale(_ id: String) -> Widget {
    var cpu = widget(id, .gauge(Gauge(value: 25, minValue: 0, maxValue: 100)), accent: "red")
    cpu.staleAfterMs = 30_000
    cpu.stale = true
    return cpu
  }

  @Test func watchDimsAWidgetTheServerMarkedStaleWhileLive() {
    let model = liveModel([stale("cpu")])
    let frame = ScreenRenderer.frame(
      model, ids: ["cpu"], size: ScreenRenderer.Size(columns: 40, rows: 12), nowMs: 1_065_000,
      interactive: false)
    let card = frame.dropFirst()
    #expect(card.contains { $0.plainText.hasSuffix("stale · updated 1m 5s ago") })
    #expect(!card.joined().contains { $0.style.foreground != nil })
  }

  @Test func lsDimsStaleRowsAndSaysHowLongAgo() {
    let fresh = widget("a", .value(PlainValue(value: 1)))
    let widgets = [fresh, stale("b")]
    let plain = WidgetText.table(widgets, nowMs: 1_065_000, palette: Palette(.plain))
    let lines = plain.split(separator: "\n")
    #expect(lines[1].hasPrefix("a ") && !lines[1].contains("stale"))
    #expect(lines[2].hasSuffix("(stale, updated 1m 5s ago)"))
    let styled = WidgetText.table(widgets, nowMs: 1_065_000, palette: Palette(.ansi256))
    let styledLines = styled.split(separator: "\n")
    #expect(styledLines[2].hasPrefix("\u{1B}[2m") && !styledLines[1].hasPrefix("\u{1B}"))
  }

  @Test func getSaysWhetherAWidgetIsStale() {
    #expect(
      WidgetText.staleness(stale("b"), nowMs: 1_005_000)
        == "stale: updated 5s ago (after 30s)")
    var fresh = stale("b")
    fresh.stale = false
    #expect(
      WidgetText.staleness(fresh, nowMs: 1_005_000) == "fresh (stale after 30s without a write)")
    #expect(WidgetText.staleness(widget("c", .progress(Progress(value: 0))), nowMs: 0) == nil)
  }
}
