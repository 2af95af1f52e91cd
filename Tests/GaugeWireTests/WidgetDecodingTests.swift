import GaugeDomain
import GaugeWire
import Testing

@Suite struct WidgetDecodingTests {
  /// The gauge sample with every field set, made valid: "white" is not one
  /// of the named colours.
  static let fullGauge = {
    var widget = SampleWidgets.gauge
    widget.content.textColor = "FFFFFF"
    return widget
  }()

  @Test(arguments: [fullGauge, SampleWidgets.progress, SampleWidgets.value])
  func anEncodedWidgetDecodesToTheSameValue(widget: Widget) throws {
    let bytes = WidgetWire.encodeWidget(widget)
    #expect(try decode(bytes, with: WidgetWire.decodeWidget) == widget)
  }

  @Test func aWidgetWithoutARevisionIsRefused() {
    // Field 1 (id) = "a", field 2 (name) = "": no revision, no timestamps.
    let error = wireError([0x0a, 0x01, 0x61, 0x12, 0x00], with: WidgetWire.decodeWidget)
    #expect(error?.message == "widget \"a\" lacks its revision or timestamps")
  }

  @Test func storedContentIsValidatedAgain() throws {
    var widget = SampleWidgets.progress
    widget.content.template = .progress(Progress(value: 7))
    let error = wireError(WidgetWire.encodeWidget(widget), with: WidgetWire.decodeWidget)
    #expect(error?.message.hasPrefix("widget \"p\" is not valid: content.progress.value") == true)
  }

  @Test func bytesThatAreNotAWidgetAreRefused() {
    #expect(wireError([0xff, 0xff, 0xff], with: WidgetWire.decodeWidget) != nil)
  }
}
