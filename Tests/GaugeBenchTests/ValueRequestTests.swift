import GaugeDomain
import GaugeWire
import Testing

@testable import gauge_bench

/// Rewriting the value in place gives the bytes a fresh encode would.
@Suite struct ValueRequestTests {
  @Test(arguments: [0.0, -1.5, 8_123_456_789_012_345, .greatestFiniteMagnitude])
  func aValueUpdateCarriesTheNewValue(value: Double) throws {
    var request = ValueRequest.valueUpdate(id: "bench-00042")
    request.set(value)
    #expect(request.bytes == WidgetWire.encodeValueUpdate(id: "bench-00042", value: value))
  }

  @Test func anUpdateWidgetRequestCarriesTheNewValue() throws {
    var request = ValueRequest.updateWidget(id: "w")
    request.set(42.25)
    let fresh = WidgetWire.encodeUpdateWidgetRequest(
      WidgetUpdate(id: "w", content: ContentPatch(template: .value(PlainValuePatch(value: 42.25)))))
    #expect(request.bytes == fresh)
  }

  @Test func widgetIDsSortInCreationOrder() {
    let ids = [0, 9, 10, 99_999, 100_000].map(BenchRequests.widgetID)
    #expect(ids == ["bench-00000", "bench-00009", "bench-00010", "bench-99999", "bench-100000"])
    #expect(ids.dropLast() == ids.dropLast().sorted())
  }
}
