import Testing

@testable import ProtoJSON

@Suite struct JSONInputErrorTests {
  @Test(arguments: [
    (
      #"{"widget": {"content": {"gauge": {"minValu": 1}}}}"#,
      "widget.content.gauge.minValu", "is not a known field of gauge.v1.Gauge"
    ),
    (#"{"Widget": {}}"#, "Widget", "is not a known field of gauge.v1.PutWidgetRequest"),
    (
      #"{"widget": {"content": {"gauge": {"minValue": 1, "min_value": 2}}}}"#,
      "widget.content.gauge.min_value", "is the same field as minValue"
    ),
    (
      #"{"widget": {"content": {"gauge": {"min_value": null, "minValue": 2}}}}"#,
      "widget.content.gauge.minValue", "is the same field as min_value"
    ),
    (
      #"{"widget": {"content": {"gauge": {"value": "high"}}}}"#, "widget.content.gauge.value",
      "must be a number"
    ),
    (
      #"{"widget": {"content": {"gauge": {"value": true}}}}"#, "widget.content.gauge.value",
      "must be a number"
    ),
    (
      #"{"widget": {"content": {"gauge": {"value": " 1"}}}}"#, "widget.content.gauge.value",
      "must be a number"
    ),
    (
      #"{"widget": {"content": {"gauge": {"value": "0x1p3"}}}}"#, "widget.content.gauge.value",
      "must be a number"
    ),
    (
      #"{"widget": {"content": {"gauge": {"value": "inf"}}}}"#, "widget.content.gauge.value",
      "must be a number"
    ),
    (#"{"widget": {"revision": 1.5}}"#, "widget.revision", "must be an integer"),
    (#"{"widget": {"revision": -1}}"#, "widget.revision", "is out of range for uint64"),
    (
      #"{"widget": {"revision": "18446744073709551616"}}"#, "widget.revision",
      "is out of range for uint64"
    ),
    (#"{"widget": {"revision": "+1"}}"#, "widget.revision", "must be an integer"),
    (#"{"widget": {"revision": "1e3"}}"#, "widget.revision", "must be an integer"),
    (
      #"{"widget": {"createdAtMs": 9.007199254740993e15}}"#, "widget.createdAtMs",
      "must be written in digits alone from 2^53 on"
    ),
    (
      #"{"widget": {"createdAtMs": 9223372036854775808}}"#, "widget.createdAtMs",
      "is out of range for int64"
    ),
    (
      #"{"widget": {"id": "a", "id": "b"}}"#, "widget.id", "is given twice"
    ),
    (
      #"{"widget": {"id": "a", "\u0069d": "b"}}"#, "widget.id", "is given twice"
    ),
    (
      #"{"widget": {"n\u0061me": 1}}"#, "widget.name", "must be a string"
    ),
    (
      #"{"widget": {"createdAtMs": "-9223372036854775809"}}"#, "widget.createdAtMs",
      "is out of range for int64"
    ),
    (#"{"widget": {"createdAtMs": 1e19}}"#, "widget.createdAtMs", "is out of range for int64"),
    (#"{"widget": {"createdAtMs": 1e30}}"#, "widget.createdAtMs", "is out of range for int64"),
    (#"{"widget": {"id": 7}}"#, "widget.id", "must be a string"),
    (
      #"{"widget": {"content": {"trend": "SIDEWAYS"}}}"#, "widget.content.trend",
      "is not a value of gauge.v1.Trend"
    ),
    (
      #"{"widget": {"content": {"trend": "up"}}}"#, "widget.content.trend",
      "is not a value of gauge.v1.Trend"
    ),
    (
      #"{"widget": {"content": {"trend": true}}}"#, "widget.content.trend",
      "must be a value name of gauge.v1.Trend or an integer"
    ),
    (
      #"{"widget": {"content": {"trend": 2147483648}}}"#, "widget.content.trend",
      "is out of range for enum"
    ),
    (#"{"widget": {"content": "gauge"}}"#, "widget.content", "must be an object"),
    (
      #"{"widget": {"content": {"gauge": {"marks": [{}, []]}}}}"#, "widget.content.gauge.marks[1]",
      "must be an object"
    ),
    (
      #"{"widget": {"content": {"gauge": {"marks": [{}, {"value": "x"}]}}}}"#,
      "widget.content.gauge.marks[1].value", "must be a number"
    ),
    (
      #"{"widget": {"content": {"gauge": {"gradient": "red"}}}}"#, "widget.content.gauge.gradient",
      "must be an array"
    ),
    (
      #"{"widget": {"content": {"gauge": {"gradient": ["red", null]}}}}"#,
      "widget.content.gauge.gradient[1]", "must not be null"
    ),
    (
      #"{"widget": {"content": {"gauge": {"gradient": ["red", 1]}}}}"#,
      "widget.content.gauge.gradient[1]", "must be a string"
    ),
  ])
  func namesTheFieldAndTheRule(json: String, field: String, rule: String) {
    #expect(Messages.putWidgetRequest.jsonError(json) == ProtoJSONError(field: field, rule: rule))
  }

  @Test(arguments: [
    (#"{"ids": ["a", "b", null]}"#, "ids[2]", "must not be null"),
    (#"{"includeSnapshot": "true"}"#, "includeSnapshot", "must be true or false"),
    (#"{"include_snapshot": 1}"#, "include_snapshot", "must be true or false"),
    (#"{"minIntervalMs": 4294967296}"#, "minIntervalMs", "is out of range for uint32"),
    (#"{"minIntervalMs": -1}"#, "minIntervalMs", "is out of range for uint32"),
  ])
  func namesFieldsOfOtherMessages(json: String, field: String, rule: String) {
    #expect(Messages.subscribeRequest.jsonError(json) == ProtoJSONError(field: field, rule: rule))
  }

  @Test(arguments: [
    (#"{"pageSize": 2147483648}"#, "pageSize", "is out of range for int32"),
    (#"{"pageSize": "-2147483649"}"#, "pageSize", "is out of range for int32"),
    (#"{"pageSize": "12a"}"#, "pageSize", "must be an integer"),
    (#"{"pageSize": ""}"#, "pageSize", "must be an integer"),
    (#"{"pageSize": [1]}"#, "pageSize", "must be an integer"),
  ])
  func checksInt32Ranges(json: String, field: String, rule: String) {
    #expect(Messages.listWidgetsRequest.jsonError(json) == ProtoJSONError(field: field, rule: rule))
  }

  @Test(arguments: [
    ("[]", "must be a JSON object"),
    ("\"id\"", "must be a JSON object"),
    ("null", "must be a JSON object"),
    ("", "is not valid JSON: line 1, column 1: expected a value, found the end of the input"),
    (#"{"id": "a"} x"#, #"is not valid JSON: line 1, column 13: unexpected "x" after the value"#),
    (#"{"id": "a", "name": "x\q"}"#, #"is not valid JSON: line 1, column 24: invalid escape \"q""#),
    (
      #"{"content": {"gauge": {"marks": [{"value": 1,}]}}}"#,
      #"is not valid JSON: line 1, column 46: expected a member name in quotes, found "}""#
    ),
    (#"{"id": "a"}}"#, #"is not valid JSON: line 1, column 12: unexpected "}" after the value"#),
  ])
  func refusesABodyThatIsNotOneObject(json: String, rule: String) {
    #expect(Messages.widget.jsonError(json) == ProtoJSONError(field: "", rule: rule))
  }

  @Test func refusesABodyThatIsNotUTF8() {
    #expect(
      Messages.widget.jsonError(bytes: [UInt8(ascii: "{"), 0xFF, UInt8(ascii: "}")])
        == ProtoJSONError(field: "", rule: "is not valid JSON: it is not UTF-8"))
  }

  @Test func describesTheErrorWithItsPath() {
    #expect(
      ProtoJSONError(field: "ids[2]", rule: "must not be null").description
        == "ids[2] must not be null")
    #expect(
      ProtoJSONError(field: "", rule: "must be a JSON object").description
        == "the message must be a JSON object")
  }
}
