import Testing

@testable import gauge_bench

/// The value an SSE subscriber reads out of an upsert's widget JSON.
@Suite struct WidgetJSONValueTests {
  static func value(_ json: String) -> Double? {
    Array(json.utf8).withUnsafeBytes { WidgetJSONValue.value(in: $0) }
  }

  @Test func theContentsValueNotTheTemplatesName() {
    let json =
      #"{"id":"bench-00000","name":"bench","content":{"template":"value","value":57},"#
      + #""revision":9,"updated_at":"2026-01-01T00:00:00.000Z"}"#
    #expect(Self.value(json) == 57)
  }

  @Test(arguments: [
    ("123456789012345", 123_456_789_012_345.0), ("1.2345678901234568e+18", 1.2345678901234568e18),
    ("-2.5", -2.5), ("0", 0), ("12345678901234567890", 12_345_678_901_234_567_890.0),
  ])
  func numbersInAnyJSONForm(text: String, expected: Double) {
    #expect(Self.value(#"{"content":{"value": "# + text + "}}") == expected)
  }

  @Test func aKeyInsideAStringIsNotTheValue() {
    #expect(Self.value(#"{"name":"say \"value\":1","content":{"value":2}}"#) == 2)
  }

  @Test(arguments: [#"{"content":{"template":"value"}}"#, #"{"value":null}"#, ""])
  func noNumberNoValue(json: String) {
    #expect(Self.value(json) == nil)
  }
}
