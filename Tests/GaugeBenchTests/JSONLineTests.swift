import Testing

@testable import gauge_bench

@Suite struct JSONLineTests {
  @Test func fieldsKeepTheirOrderAndTypes() {
    var line = JSONLine()
    line.add("scenario", "unary")
    line.add("count", 3)
    line.add("rate", 1234.56, decimals: 1)
    line.add("whole", 2.0)
    line.add("ok", true)
    #expect(
      line.description
        == #"{"scenario": "unary", "count": 3, "rate": 1234.6, "whole": 2, "ok": true}"#)
  }

  @Test func stringsAreEscapedAndNonFiniteNumbersAreNull() {
    var line = JSONLine()
    line.add("text", "a \"b\"\\\n\u{1}")
    line.add("nan", Double.nan)
    #expect(line.description == #"{"text": "a \"b\"\\\n\u0001", "nan": null}"#)
  }
}
