import GaugeDomain
import GaugeWire
import Testing

/// Rewriting the value in place gives the bytes a fresh encode would.
@Suite struct TrailingValueMessageTests {
  @Test(arguments: [0.0, -1.5, 8_123_456_789_012_345, .greatestFiniteMagnitude])
  func aValueUpdateCarriesTheNewValue(value: Double) throws {
    var request = TrailingValueMessage.valueUpdate(id: "bench-00042")
    request.set(value)
    #expect(request.bytes == WidgetWire.encodeValueUpdate(id: "bench-00042", value: value))
  }

  @Test func anUpdateWidgetRequestCarriesTheNewValue() throws {
    var request = TrailingValueMessage.updateWidget(id: "w")
    request.set(42.25)
    let fresh = WidgetWire.encodeUpdateWidgetRequest(
      WidgetUpdate(id: "w", content: ContentPatch(template: .value(PlainValuePatch(value: 42.25)))))
    #expect(request.bytes == fresh)
  }

  @Test func writesACopyWithTheValueAndLeavesItselfAlone() {
    let template = TrailingValueMessage.valueUpdate(id: "cpu")
    var copy = [UInt8](repeating: 0xAA, count: template.bytes.count)
    copy.withUnsafeMutableBytes { template.write(value: -7.5, to: $0) }
    #expect(copy == WidgetWire.encodeValueUpdate(id: "cpu", value: -7.5))
    #expect(template.bytes == WidgetWire.encodeValueUpdate(id: "cpu", value: 0))
  }
}
