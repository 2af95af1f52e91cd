import GaugeDomain
import GaugeWire
import Testing

/// `encodeWidget(_:into:)` writes the widget itself; `encodeWidget(_:)`
/// has protobuf-c pack it. The bytes must be the same.
@Suite struct WidgetWireWriterTests {
  private static func written(_ widget: Widget) -> [UInt8] {
    var bytes: [UInt8] = []
    WidgetWire.encodeWidget(widget) { size, write in
      bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        write(UnsafeMutableRawBufferPointer(buffer))
        count = size
      }
    }
    return bytes
  }

  @Test(arguments: [SampleWidgets.gauge, SampleWidgets.progress, SampleWidgets.value])
  func theSamplesAreWrittenAsProtobufCPacksThem(widget: Widget) {
    #expect(Self.written(widget) == WidgetWire.encodeWidget(widget))
  }

  /// Strings of every length class (an empty one, a 200-byte one whose
  /// length takes two bytes, multi-byte UTF-8), absent optionals, every
  /// style and trend, negative times, and revisions up to 2^64 - 1.
  @Test func randomWidgetsAreWrittenAsProtobufCPacksThem() {
    var random = SeededGenerator(seed: 0x6175_6765)
    for _ in 0..<3_000 {
      let widget = Self.widget(using: &random)
      let written = Self.written(widget)
      let packed = WidgetWire.encodeWidget(widget)
      guard written == packed else {
        Issue.record("\(widget): wrote \(written), protobuf-c packed \(packed)")
        return
      }
    }
  }

  private static func widget(using random: inout SeededGenerator) -> Widget {
    let template: Template =
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        .gauge(
          Gauge(
            value: number(&random), minValue: number(&random), maxValue: number(&random),
            style: GaugeStyle.allCases.randomElement(using: &random)!,
            gradient: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
            marks: (0..<Int.random(in: 0...3, using: &random)).map { _ in
              Mark(value: number(&random), label: optionalText(&random))
            },
            currentValueLabel: optionalText(&random), minLabel: optionalText(&random),
            maxLabel: optionalText(&random)))
      case 1: .progress(Progress(value: number(&random)))
      default:
        .value(
          PlainValue(
            value: number(&random), minValue: Bool.random(using: &random) ? number(&random) : nil,
            maxValue: Bool.random(using: &random) ? number(&random) : nil))
      }
    return Widget(
      id: text(&random), name: text(&random),
      content: Content(
        template: template, label: optionalText(&random), subtitle: optionalText(&random),
        icon: optionalText(&random), unit: optionalText(&random),
        trend: Trend.allCases.randomElement(using: &random)!,
        accentColor: optionalText(&random), backgroundColor: optionalText(&random),
        textColor: optionalText(&random)),
      revision: [0, 1, 127, 128, .max, random.next()].randomElement(using: &random)!,
      createdAtMs: Int64(bitPattern: random.next()),
      updatedAtMs: [0, -1, 1_700_000_000_000, .min].randomElement(using: &random)!,
      staleAfterMs: [nil, 1000, 127, 128, 604_800_000].randomElement(using: &random)!,
      stale: Bool.random(using: &random))
  }

  private static func number(_ random: inout SeededGenerator) -> Double {
    [0, -0.0, 1.5, -273.15, .infinity, .nan, .greatestFiniteMagnitude, Double(random.next())]
      .randomElement(using: &random)!
  }

  private static func text(_ random: inout SeededGenerator) -> String {
    ["", "a", "cpu-1", "caf\u{e9} \u{1F321}\u{FE0F}", String(repeating: "x", count: 200)]
      .randomElement(using: &random)!
  }

  private static func optionalText(_ random: inout SeededGenerator) -> String? {
    Bool.random(using: &random) ? nil : text(&random)
  }
}
