import GaugeDomain
import GaugeJSON
import GaugeWire
import Testing
import WidgetJSON

@testable import GaugeCtlKit

@Suite struct WidgetInputTests {
  @Test func flagsBuildTheWholePut() throws {
    let arguments = try Arguments.parse(
      [
        "--gauge", "42", "--min", "0", "--max", "100", "--unit", "%", "--label", "CPU",
        "--name", "CPU load", "--accent", "orange", "--trend", "up", "--style",
        "accessory-circular", "--mark", "80:hot", "--mark", "10", "--gradient", "green, red",
        "--min-label", "idle", "--icon", "cpu",
      ], accepting: WidgetFlags.specs)
    let put = try WidgetFlags.put(id: "cpu", arguments)
    #expect(
      put
        == WidgetPut(
          id: "cpu", name: "CPU load",
          content: ContentPatch(
            template: .gauge(
              GaugePatch(
                value: 42, minValue: 0, maxValue: 100,
                style: GaugeStyle.accessoryCircular.rawValue, gradient: ["green", "red"],
                marks: [MarkPatch(value: 80, label: "hot"), MarkPatch(value: 10)],
                minLabel: "idle")),
            label: "CPU", icon: "cpu", unit: "%", trend: Trend.up.rawValue,
            accentColor: "orange")))
  }

  @Test func flagsNeedExactlyOneTemplate() throws {
    let none = try Arguments.parse(["--unit", "%"], accepting: WidgetFlags.specs)
    #expect(throws: CLIError.self) { try WidgetFlags.put(id: "x", none) }
    let two = try Arguments.parse(["--gauge", "1", "--value", "2"], accepting: WidgetFlags.specs)
    #expect(throws: CLIError.usage("put takes one template, got --gauge and --value")) {
      try WidgetFlags.put(id: "x", two)
    }
    let progress = try Arguments.parse(
      ["--progress", "0.5", "--max", "2"], accepting: WidgetFlags.specs)
    #expect(throws: CLIError.self) { try WidgetFlags.put(id: "x", progress) }
  }

  /// What `get --json` prints is the REST face's widget, and `put -f`
  /// reads it back as the same widget.
  @Test func getJSONIsTheRESTShapeAndReadsBackAsTheSameWidget() throws {
    let widget = Widget(
      id: "cpu", name: "CPU",
      content: Content(
        template: .gauge(
          Gauge(
            value: 42, minValue: -10, maxValue: 100, style: .accessoryCircularCapacity,
            gradient: ["green", "#FF0000"],
            marks: [Mark(value: 10, label: "low"), Mark(value: 90)],
            currentValueLabel: "42!", minLabel: "", maxLabel: "max")),
        label: "l", subtitle: "s", icon: "cpu", unit: "%", trend: .flat, accentColor: "red",
        backgroundColor: "#000000", textColor: "white"),
      revision: 7, createdAtMs: 1, updatedAtMs: 2)
    let text = JSONWriter.compact(RESTWidgetJSON.json(widget))
    #expect(
      text
        == ##"{"id":"cpu","name":"CPU","content":{"template":"gauge","value":42,"min_value":-10,"##
        + ##""max_value":100,"style":"accessory_circular_capacity","gradient":["green","#FF0000"],"##
        + ##""marks":[{"value":10,"label":"low"},{"value":90}],"current_value_label":"42!","##
        + ##""min_label":"","max_label":"max","label":"l","subtitle":"s","icon":"cpu","unit":"%","##
        + ##""trend":"flat","accent_color":"red","background_color":"#000000","text_color":"white"},"##
        + ##""revision":7,"created_at":"1970-01-01T00:00:00.001Z","##
        + ##""updated_at":"1970-01-01T00:00:00.002Z"}"##)
    let put = try WidgetJSONInput.put(try JSONParser.parse(text), id: nil)
    // What the server would store from this put is the widget again.
    let bytes = WidgetWire.encodePutWidgetRequest(put)
    let decoded = try bytes.withUnsafeBytes { raw in
      try WidgetWire.decodePutWidgetRequest(raw)
    }
    #expect(decoded == put)
    #expect(put.id == "cpu" && put.name == "CPU")
    #expect(
      put.content
        == ContentPatch(
          template: .gauge(
            GaugePatch(
              value: 42, minValue: -10, maxValue: 100,
              style: GaugeStyle.accessoryCircularCapacity.rawValue,
              gradient: ["green", "#FF0000"],
              marks: [MarkPatch(value: 10, label: "low"), MarkPatch(value: 90)],
              currentValueLabel: "42!", minLabel: "", maxLabel: "max")),
          label: "l", subtitle: "s", icon: "cpu", unit: "%", trend: Trend.flat.rawValue,
          accentColor: "red", backgroundColor: "#000000", textColor: "white"))
  }

  @Test func restShapeProblemsNameTheirRESTPath() throws {
    let json = try JSONParser.parse(
      """
      {"id": "other", "content": {"template": "gauge", "value": "high", "colour": "red",
       "marks": [{"value": "x"}], "style": "LINEAR"}, "revision": 3}
      """)
    #expect(
      throws: CLIError.rejected(
        "the widget JSON is not usable:",
        [
          #"id: "other" differs from the id on the command line, "cpu""#,
          "content.value: must be a number, got a string",
          "content.colour: is not a field of a gauge widget",
          "content.marks[0].value: must be a number, got a string",
          #"content.style: "LINEAR" is not a style (automatic, linear_capacity, "#
            + "accessory_linear, accessory_linear_capacity, accessory_circular, "
            + "accessory_circular_capacity, circular, linear)",
        ])
    ) { try WidgetJSONInput.put(json, id: "cpu") }
    #expect(
      throws: CLIError.rejected(
        "the widget JSON is not usable:", ["id: give it on the command line or in the JSON"])
    ) {
      try WidgetJSONInput.put(
        try JSONParser.parse(#"{"content": {"template": "progress", "value": 0.5}}"#), id: nil)
    }
  }

  /// The README's `{"template": "value", "value": 21.5, "unit": "°C"}`.
  @Test func flatJSONIsTheContentAlone() throws {
    let readme = try JSONParser.parse(#"{"template": "value", "value": 21.5, "unit": "°C"}"#)
    #expect(
      try WidgetJSONInput.put(readme, id: "temp")
        == WidgetPut(
          id: "temp",
          content: ContentPatch(template: .value(PlainValuePatch(value: 21.5)), unit: "°C")))
    let json = try JSONParser.parse(
      """
      {"template": "gauge", "value": 42, "min_value": 0, "max_value": 100, "unit": "%",
       "label": "CPU", "accent_color": "orange", "style": "LINEAR", "trend": "down",
       "marks": [{"value": 50, "label": "half"}], "gradient": ["green", "red"], "name": "n"}
      """)
    let put = try WidgetJSONInput.put(json, id: "cpu")
    #expect(put.id == "cpu" && put.name == "n")
    #expect(put.content?.unit == "%" && put.content?.accentColor == "orange")
    #expect(put.content?.trend == Trend.down.rawValue)
    #expect(
      put.content?.template
        == .gauge(
          GaugePatch(
            value: 42, minValue: 0, maxValue: 100, style: GaugeStyle.linear.rawValue,
            gradient: ["green", "red"], marks: [MarkPatch(value: 50, label: "half")])))
  }

  @Test func flatJSONProblemsNameTheFieldsAsWritten() throws {
    let json = try JSONParser.parse(
      """
      {"template": "progress", "value": "high", "min_value": 0, "colour": "red",
       "trend": "sideways", "id": "other"}
      """)
    #expect(
      throws: CLIError.rejected(
        "the widget JSON is not usable:",
        [
          #"id: "other" differs from the id on the command line, "cpu""#,
          "value: must be a number, got a string",
          "min_value: is not a field of a progress widget",
          "colour: is not a field of a progress widget",
          #"trend: "sideways" is not a trend (up, down or flat)"#,
        ])
    ) { try WidgetJSONInput.put(json, id: "cpu") }
    #expect(
      throws: CLIError.rejected(
        "the widget JSON is not usable:", ["template: is required (gauge, progress or value)"])
    ) { try WidgetJSONInput.put(try JSONParser.parse(#"{"value": 1}"#), id: "cpu") }
  }

  /// What `get --json` printed before it printed the REST shape.
  @Test func nestedJSONFromOlderGaugectlStillReads() throws {
    let json = try JSONParser.parse(
      """
      {"id": "cpu", "name": "CPU", "content": {"gauge": {"value": 42, "min_value": 0,
       "max_value": 100, "style": "ACCESSORY_CIRCULAR", "marks": [{"value": 80}]},
       "unit": "%", "trend": "UP"}, "revision": 7, "created_at_ms": 1, "updated_at_ms": 2}
      """)
    #expect(
      try WidgetJSONInput.put(json, id: nil)
        == WidgetPut(
          id: "cpu", name: "CPU",
          content: ContentPatch(
            template: .gauge(
              GaugePatch(
                value: 42, minValue: 0, maxValue: 100,
                style: GaugeStyle.accessoryCircular.rawValue, marks: [MarkPatch(value: 80)])),
            unit: "%", trend: Trend.up.rawValue)))
    let broken = try JSONParser.parse(
      #"{"content": {"gauge": {"value": 1, "marks": [{"value": "x"}]}, "unit": 5}}"#)
    #expect(
      throws: CLIError.rejected(
        "the widget JSON is not usable:",
        [
          "content.gauge.marks[0].value: must be a number, got a string",
          "content.unit: must be a string, got a number",
        ])
    ) { try WidgetJSONInput.put(broken, id: "cpu") }
  }

  @Test func publishLines() {
    #expect(PublishLine.parse("cpu 42") == .item(id: "cpu", value: 42))
    #expect(PublishLine.parse("  cpu\t-0.5  ") == .item(id: "cpu", value: -0.5))
    #expect(PublishLine.parse(#"{"id": "disk", "value": 0.25}"#) == .item(id: "disk", value: 0.25))
    #expect(PublishLine.parse("") == .skip)
    #expect(PublishLine.parse("# cpu 1") == .skip)
    #expect(
      PublishLine.parse("cpu")
        == .invalid(id: "cpu", reason: "expected \"ID VALUE\" or a JSON object, got 1 field"))
    #expect(
      PublishLine.parse("cpu 1 2")
        == .invalid(id: "cpu", reason: "expected \"ID VALUE\" or a JSON object, got 3 fields"))
    #expect(
      PublishLine.parse("cpu high") == .invalid(id: "cpu", reason: "\"high\" is not a number"))
    #expect(
      PublishLine.parse("pc\0xyz 42") == .invalid(id: nil, reason: "contains a NUL character"))
    #expect(
      PublishLine.parse(#"{"id": "cpu"}"#)
        == .invalid(id: "cpu", reason: "value: must be a number, it is missing"))
    #expect(
      PublishLine.parse(#"{"id": 1, "value": 2}"#)
        == .invalid(id: nil, reason: "id: must be a string, got a number"))
    #expect(
      PublishLine.parse(#"{"id": "a", "value": 2, "x": 1}"#)
        == .invalid(id: "a", reason: "x: is not a field of a value line"))
    #expect(
      PublishLine.parse("[1]")
        == .invalid(id: "[1]", reason: "expected \"ID VALUE\" or a JSON object, got 1 field"))
    #expect(
      PublishLine.parse("{oops")
        == .invalid(
          id: nil, reason: "not JSON: expected a member name in quotes, found \"o\" at column 2"))
  }

  /// Blanks (spaces, tabs, a CR left by CRLF input) go from both ends in any
  /// mix, and the characters next to them survive whole.
  @Test func publishLinesAreTrimmedOfBlanksInAnyMix() {
    #expect(PublishLine.parse("\t #cpu 1") == .skip)
    #expect(PublishLine.parse(" \t\r") == .skip)
    #expect(PublishLine.parse("\t cpu \t 7 \r") == .item(id: "cpu", value: 7))
    #expect(PublishLine.parse("é 1") == .item(id: "é", value: 1))
    #expect(PublishLine.parse(" \t温度\t2\r") == .item(id: "温度", value: 2))
    #expect(PublishLine.parse("cpu 1é") == .invalid(id: "cpu", reason: "\"1é\" is not a number"))
    // A blank and a combining mark are one Character, but still two fields.
    #expect(
      PublishLine.parse("cpu \u{301}1")
        == .invalid(id: "cpu", reason: "\"\u{301}1\" is not a number"))
    #expect(" a b ".trimmingASCII(where: { $0 == UInt8(ascii: " ") }) == "a b")
  }

  /// An id longer than any widget's is refused before it is sent, with the
  /// server's rule; one of the longest allowed still goes out.
  @Test func publishLinesWithIdsLongerThanAnyWidgetsAreRefused() {
    let longest = String(repeating: "a", count: 128)
    #expect(PublishLine.parse("\(longest) 1") == .item(id: longest, value: 1))
    let tooLong = longest + "b"
    let refused = PublishLine.refused(
      id: tooLong, reason: "id: must be at most 128 characters, got 129")
    #expect(PublishLine.parse("\(tooLong) 1") == refused)
    #expect(PublishLine.parse(#"{"id": "\#(tooLong)", "value": 1}"#) == refused)
    // Other invalid ids are the server's to judge, as for any other line.
    #expect(PublishLine.parse("not-ok! 1") == .item(id: "not-ok!", value: 1))
  }
}
