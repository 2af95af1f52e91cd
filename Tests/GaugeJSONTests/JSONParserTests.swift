import Testing

@testable import GaugeJSON

@Suite struct JSONParserTests {
  @Test func readsEveryKindOfValueAndKeepsMemberOrder() throws {
    let value = try JSONParser.parse(
      #" { "b": [1, -2.5, 3e2, 0.125E-1], "a": {"t": true, "f": false, "n": null}, "s": "x" } "#)
    #expect(
      value
        == .object([
          ("b", .array([.number(1), .number(-2.5), .number(300), .number(0.0125)])),
          ("a", .object([("t", .bool(true)), ("f", .bool(false)), ("n", .null)])),
          ("s", .string("x")),
        ]))
    #expect(value["s"] == .string("x"))
    #expect(value["missing"] == nil)
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let value = try JSONParser.parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\ude00 €""#)
    #expect(value == .string("q\" b\\ s/ \u{8}\u{C}\n\r\t é 😀 €"))
  }

  @Test(arguments: [
    ("", "line 1, column 1: expected a value, found the end of the input"),
    ("{\"a\": 1,}", "line 1, column 9: expected a member name in quotes, found \"}\""),
    ("[1 2]", "line 1, column 4: expected \",\" or \"]\" in the array, found \"2\""),
    ("{\n  \"a\": 1,\n  \"a\": 2\n}", "line 3, column 3: duplicate key \"a\""),
    ("01", "line 1, column 2: leading zeros are not allowed"),
    ("1.", "line 1, column 3: expected a digit after \".\""),
    ("-", "line 1, column 2: expected a digit after \"-\""),
    ("\"abc", "line 1, column 5: unterminated string"),
    ("\"a\nb\"", "line 1, column 3: control character U+000A must be escaped in a string"),
    ("\"\\x\"", "line 1, column 3: invalid escape \\\"x\""),
    ("\"\\ud800\"", "line 1, column 8: unpaired surrogate \\ud800"),
    // protobuf-c would cut the string there, and the write would go to another id.
    ("\"pc\\u0000x\"", "line 1, column 4: \\u0000: a string cannot hold NUL"),
    ("tru", "line 1, column 1: expected a value, found \"t\""),
    ("1e999", "line 1, column 1: number 1e999 is out of range"),
    ("{} x", "line 1, column 4: unexpected \"x\" after the value"),
    ("NaN", "line 1, column 1: expected a value, found \"N\""),
  ])
  func rejectsMalformedInputNamingWhereAndWhy(input: String, message: String) {
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse(input) }
    do {
      _ = try JSONParser.parse(input)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func refusesNestingDeeperThanTheLimit() {
    let deep =
      String(repeating: "[", count: JSONParser.maxDepth + 1)
      + String(repeating: "]", count: JSONParser.maxDepth + 1)
    #expect(throws: JSONParser.Error.self) { try JSONParser.parse(deep) }
    let fine =
      String(repeating: "[", count: JSONParser.maxDepth)
      + String(repeating: "]", count: JSONParser.maxDepth)
    #expect(throws: Never.self) { try JSONParser.parse(fine) }
  }

  @Test func writerOutputReadsBackTheSame() throws {
    let value = JSONValue.object([
      ("text", .string("tab\there \"quoted\" \u{1} \u{7F} \u{9B} é 😀")), ("whole", .number(42)),
      ("fraction", .number(0.1)), ("big", .number(1e300)), ("negative", .number(-7.25)),
      ("list", .array([.bool(true), .null, .object([])])), ("empty", .array([])),
    ])
    #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
    #expect(try JSONParser.parse(JSONWriter.pretty(value)) == value)
    // C0 and C1 escaped as JSON, so that a terminal finds none to act on.
    #expect(
      !JSONWriter.compact(value).unicodeScalars.contains {
        $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
      })
  }

  @Test func writerFormatsNumbersAndIndents() {
    #expect(JSONWriter.format(42) == "42")
    #expect(JSONWriter.format(-0.5) == "-0.5")
    // -0 is a value a gauge may hold; "0" would read back as +0.
    #expect(JSONWriter.format(-0.0) == "-0")
    if case .number(let zero)? = try? JSONParser.parse(JSONWriter.format(-0.0)) {
      #expect(zero.sign == .minus)
    } else {
      Issue.record("-0 does not read back as a number")
    }
    #expect(JSONWriter.format(1_700_000_000_123) == "1700000000123")
    #expect(JSONWriter.format(.nan) == "null")
    #expect(
      JSONWriter.pretty(.object([("a", .array([.number(1)])), ("b", .object([]))]))
        == "{\n  \"a\": [\n    1\n  ],\n  \"b\": {}\n}")
    #expect(JSONWriter.compact(.object([("a", .string("\u{7F}"))])) == #"{"a":"\u007f"}"#)
  }
}
