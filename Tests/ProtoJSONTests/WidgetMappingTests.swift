import Testing

@testable import ProtoJSON

@Suite struct WidgetMappingTests {
  @Test func writesAGaugeWidgetInNumberOrderWithLowerCamelCaseNames() throws {
    #expect(try Messages.widget.json(SampleWire.gaugeWidget) == SampleWire.gaugeWidgetJSON)
  }

  @Test func readsAGaugeWidgetBackToTheSameBytes() throws {
    #expect(try Messages.widget.binary(SampleWire.gaugeWidgetJSON) == SampleWire.gaugeWidget.bytes)
  }

  @Test func roundTripsAProgressWidget() throws {
    #expect(try Messages.widget.json(SampleWire.progressWidget) == SampleWire.progressWidgetJSON)
    #expect(
      try Messages.widget.binary(SampleWire.progressWidgetJSON) == SampleWire.progressWidget.bytes)
  }

  @Test func writesFieldsPresentOnTheWireEvenAtTheirDefaults() throws {
    let wire = WireBytes().string(1, "").message(3, WireBytes()).varint(4, 0)
    #expect(try Messages.widget.json(wire) == #"{"id":"","content":{},"revision":"0"}"#)
    #expect(try Messages.widget.json(WireBytes()) == "{}")
  }

  @Test func roundTripsAListOfWidgetsWithItsPageToken() throws {
    let wire = WireBytes()
      .message(1, SampleWire.gaugeWidget).message(1, SampleWire.progressWidget)
      .string(2, "next")
    let json =
      #"{"widgets":["# + SampleWire.gaugeWidgetJSON + "," + SampleWire.progressWidgetJSON
      + #"],"nextPageToken":"next"}"#
    #expect(try Messages.listWidgetsResponse.json(wire) == json)
    #expect(try Messages.listWidgetsResponse.binary(json) == wire.bytes)
  }

  @Test func acceptsProtoNamesAndAnyMemberOrderOnInput() throws {
    let json = #"""
      {"updated_at_ms": 1700000000123, "content": {"unit": "%", "accent_color": "blue",
       "gauge": {"current_value_label": "42.5%", "marks": [{"label": "half", "value": 50},
       {"value": 90.0}], "gradient": ["#00ff00", "red"], "style": 6, "max_value": 100,
       "min_value": 0, "value": 42.5}, "label": "CPU", "trend": "UP"},
       "created_at_ms": "1700000000000", "revision": 7, "name": "CPU load", "id": "cpu"}
      """#
    #expect(try Messages.widget.binary(json) == SampleWire.gaugeWidget.bytes)
  }

  @Test func leavesNullFieldsUnset() throws {
    let json = #"{"id": "cpu", "name": null, "content": null, "revision": null}"#
    #expect(try Messages.widget.binary(json) == WireBytes().string(1, "cpu").bytes)
  }

  @Test func writesEnumNumbersTheEnumLacksAsNumbers() throws {
    let wire = WireBytes().int32(14, 9).message(1, WireBytes().int32(4, -2))
    #expect(try Messages.content.json(wire) == #"{"gauge":{"style":-2},"trend":9}"#)
    #expect(
      try Messages.content.binary(#"{"gauge":{"style":-2},"trend":9}"#)
        == WireBytes().message(1, WireBytes().int32(4, -2)).int32(14, 9).bytes)
  }

  @Test func readsSixtyFourBitIntegersExactlyFromNumbersAndStrings() throws {
    let json =
      #"{"revision": 18446744073709551615, "createdAtMs": -9223372036854775808,"#
      + #" "updatedAtMs": "9007199254740993"}"#
    let wire = WireBytes()
      .varint(4, UInt64.max).varint(5, UInt64(bitPattern: Int64.min)).varint(
        6, 9_007_199_254_740_993)
    #expect(try Messages.widget.binary(json) == wire.bytes)
    #expect(
      try Messages.widget.json(wire)
        == #"{"revision":"18446744073709551615","createdAtMs":"-9223372036854775808","#
        + #""updatedAtMs":"9007199254740993"}"#)
  }

  @Test func readsEscapedKeysAndStrings() throws {
    let json = #"{"\u0069d": "c\u0070u", "n\u0061me": "tab\tquote\" \ud83d\ude00"}"#
    #expect(
      try Messages.widget.binary(json)
        == WireBytes().string(1, "cpu").string(2, "tab\tquote\" 😀").bytes)
    #expect(
      try Messages.widget.json(WireBytes().string(2, "tab\tquote\" 😀 \u{1}"))
        == #"{"name":"tab\tquote\" 😀 \u0001"}"#)
  }
}
