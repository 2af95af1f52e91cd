import GaugeDomain
import GaugeWire

/// Starting inputs for the fuzzer: each method called the way a real client
/// calls it, valid and invalid, so mutations start deep in the services
/// rather than at the HTTP/2 handshake.
public enum SeedCorpus {
  static let service = "/gauge.v1.WidgetService/"

  public static func inputs(for target: FuzzTarget) throws(FuzzFinding) -> [(
    name: String, bytes: [UInt8]
  )] {
    switch target {
    case .calls:
      return callPrograms.map { ($0.name, $0.program.bytes) }
    case .frames:
      // What the client sent for each program, without the preface the
      // harness sends itself; the server's configuration and the size of
      // the pieces come first.
      var seeds: [(name: String, bytes: [UInt8])] = []
      for (name, program) in callPrograms {
        var recorded: [UInt8]? = []
        try CallsHarness.run(program.bytes, recordingClientBytes: &recorded)
        let frames = Array((recorded ?? []).dropFirst(FramesHarness.preface.count))
        seeds.append((name, [program.bytes[0], 255] + frames))
      }
      return seeds
    case .store:
      // 0x87: a crash instead of a clean restart; 0xC7: a crash once the
      // writer had time to commit (relaxed mode).
      let crashing = storeWrites.map { $0 == 7 ? 0x87 : $0 }
      let settledCrashing = storeWrites.map { $0 == 7 ? 0xC7 : $0 }
      return [
        ("strict", [0x00] + storeWrites), ("relaxed", [0x01] + storeWrites),
        ("strict-crash", [0x00] + crashing), ("relaxed-crash", [0x01] + crashing),
        ("relaxed-crash-settled", [0x01] + settledCrashing),
      ]
    case .json:
      return jsonDocuments.enumerated().map { ("document-\($0.offset)", Array($0.element.utf8)) }
    case .http1:
      return http1Inputs
    case .restjson:
      return restDocuments.enumerated().map { ("document-\($0.offset)", Array($0.element.utf8)) }
    case .tokens:
      return tokenInputs.enumerated().map { ("tokens-\($0.offset)", Array($0.element.utf8)) }
    }
  }

  static let tokenInputs = [
    "# name scope[:prefix] sha256\nops admin " + String(repeating: "ab", count: 32)
      + "\nci write:team- " + String(repeating: "0F", count: 32) + "\n\nro read "
      + String(repeating: "9", count: 64),
    "Bearer " + TokensHarness.secret,
    "bearer   gd_short  \nBasic dXNlcjpwYXNz\nBearer",
    "a=b; gauged_token=" + TokensHarness.secret + "; c=d",
    "ci root:x " + String(repeating: "ab", count: 32) + "\nc/i read \t abc\nadmin\nWrite",
  ]

  static let jsonDocuments = [
    #"{"id": "cpu", "name": "CPU load", "content": {"gauge": {"value": 42.5, "min_value": 0, "#
      + #""max_value": 100, "marks": [{"value": 80, "label": "hot"}]}, "label": "all cores", "#
      + #""accent_color": "orange", "trend": "TREND_UP"}}"#,
    #"[1, -0, 1e-7, 12345678901234567890, "\u00e9\ud83d\ude00\n\t\"", true, false, null, {}]"#,
    #"{"id": "a", "value": 3}"#,
    #"{"id": "cpu", "name": "CPU load", "content": {"template": "gauge", "value": 42.5, "#
      + #""min_value": 0, "max_value": 100, "style": "linear_capacity", "gradient": ["green", "#
      + #""red"], "marks": [{"value": 80, "label": "hot"}], "min_label": "idle", "label": "all "#
      + #"cores", "trend": "up", "accent_color": "orange"}, "revision": 3, "#
      + #""created_at": "2026-12-01T22:05:35.966Z", "updated_at": "2026-12-01T22:05:35.966Z"}"#,
    #"{"id": "temp", "template": "value", "value": 21.5, "max_value": 40, "unit": "°C"}"#,
  ]

  /// Byte by byte as `WriteGenerator` reads them (a number byte under 128
  /// is that byte minus 28).
  static let storeWrites: [UInt8] = [
    0, 0, 2, 1, 78, 28, 127, 0, 2, 3, 5,  // put "a": a gauge, 50 in [0, 99]
    0, 1, 0, 2, 129, 0, 0, 0,  // put "b": progress 0.5
    5, 3, 0, 88, 1, 30, 0, 127,  // values: a 60, b 2 (refused), a 99
    4, 1, 28, 4, 1, 29, 4, 0, 30,  // single values: b 0, b 1, a 2
    7,  // restart
    2, 1, 2, 0, 0, 0, 2, 0, 0,  // update "a": clear the subtitle, label "CPU"
    3, 0, 0, 150,  // gauge value 1e308 for "a": refused
    4, 1, 28,  // "b" to 0
    6, 0,  // delete "a"
    7,  // restart
    0, 0, 0, 3, 80, 0, 0, 0,  // put "a" again: a plain value
  ]

  static var callPrograms: [(name: String, program: CallProgram)] {
    [
      ("unary-lifecycle", unaryLifecycle()),
      ("publish-and-subscribe", publishAndSubscribe()),
      ("rejections", rejections()),
      ("slow-subscriber", slowSubscriber()),
      ("standard-services", standardServices()),
      ("limits-and-shutdown", limitsAndShutdown()),
      ("compressed", compressed()),
    ]
  }

  static let gaugeContent = ContentPatch(
    template: .gauge(
      GaugePatch(
        value: 42, minValue: 0, maxValue: 100, style: 1, gradient: ["#00FF00", "#FF0000"],
        marks: [MarkPatch(value: 50, label: "half")], currentValueLabel: "42", minLabel: "0",
        maxLabel: "100")),
    label: "CPU", subtitle: "core 0", icon: "cpu", unit: "%", trend: 1, accentColor: "#112233",
    backgroundColor: "#FFFFFF", textColor: "#000000")

  static func unaryLifecycle() -> CallProgram {
    var program = CallProgram()
    let calls: [(String, [UInt8])] = [
      (
        "PutWidget",
        WidgetWire.encodePutWidgetRequest(
          WidgetPut(id: "cpu", name: "CPU load", content: gaugeContent))
      ),
      (
        "PutWidget",
        WidgetWire.encodePutWidgetRequest(
          WidgetPut(
            id: "jobs", name: "Jobs",
            content: ContentPatch(template: .progress(ProgressPatch(value: 0.25)), label: "done")))
      ),
      (
        "PutWidget",
        WidgetWire.encodePutWidgetRequest(
          WidgetPut(
            id: "temperature", name: "Temperature",
            content: ContentPatch(
              template: .value(PlainValuePatch(value: 21.5, minValue: -40, maxValue: 60)),
              unit: "°C")))
      ),
      (
        "UpdateWidget",
        WidgetWire.encodeUpdateWidgetRequest(
          WidgetUpdate(
            id: "cpu", content: ContentPatch(template: .gauge(GaugePatch(value: 77))),
            clearFields: ["content.subtitle", "content.gauge.marks"]))
      ),
      (
        "UpdateWidget",
        WidgetWire.encodeUpdateWidgetRequest(
          WidgetUpdate(
            id: "jobs", content: ContentPatch(template: .progress(ProgressPatch(value: 0.5)))))
      ),
      ("GetWidget", WidgetWire.encodeGetWidgetRequest(id: "cpu")),
      ("ListWidgets", WidgetWire.encodeListWidgetsRequest(ListQuery(idPrefix: "", pageSize: 1))),
      ("DeleteWidget", WidgetWire.encodeDeleteWidgetRequest(id: "jobs")),
      ("GetWidget", WidgetWire.encodeGetWidgetRequest(id: "jobs")),
    ]
    for (method, message) in calls {
      program.call(service + method, sending: message)
      program.pump()
    }
    return program
  }

  static func publishAndSubscribe() -> CallProgram {
    var program = CallProgram()
    program.call(
      service + "PutWidget",
      sending: WidgetWire.encodePutWidgetRequest(WidgetPut(id: "cpu", content: gaugeContent)))
    let subscribe = program.call(
      service + "Subscribe",
      sending: WidgetWire.encodeSubscribeRequest(
        SubscribeQuery(ids: ["cpu"], includeSnapshot: true)))
    let resume = program.start(service + "Subscribe", metadata: "dashboard-7")
    program.send(
      WidgetWire.encodeSubscribeRequest(
        SubscribeQuery(
          idPrefix: "c", includeSnapshot: false, sinceRevision: 1_000, valueDeltas: true)),
      on: resume)
    program.pump()
    let publish = program.start(service + "PublishValues")
    for value in [10.0, 20, 30, 101, 40] {
      program.send(WidgetWire.encodeValueUpdate(id: "cpu", value: value), on: publish)
    }
    program.send(WidgetWire.encodeValueUpdate(id: "missing", value: 1), on: publish)
    program.pump()
    program.closeSend(publish)
    program.pump()
    program.cancel(subscribe)
    return program
  }

  static func rejections() -> CallProgram {
    var program = CallProgram()
    let invalid: [(String, [UInt8])] = [
      (
        "PutWidget",
        WidgetWire.encodePutWidgetRequest(
          WidgetPut(
            id: "bad",
            content: ContentPatch(
              template: .gauge(GaugePatch(value: 150, minValue: 0, maxValue: 100)),
              accentColor: "teal-ish")))
      ),
      (
        "UpdateWidget",
        WidgetWire.encodeUpdateWidgetRequest(
          WidgetUpdate(id: "nope", clearFields: ["content.nothing"]))
      ),
      ("GetWidget", WidgetWire.encodeGetWidgetRequest(id: "")),
      ("ListWidgets", WidgetWire.encodeListWidgetsRequest(ListQuery(pageToken: "garbage"))),
      ("GetWidget", [0x0A, 0xFF, 0x01]),
    ]
    for (method, message) in invalid {
      program.call(service + method, sending: message, deadlineTicks: 5)
    }
    let unknown = program.start("/no.Such/Service")
    program.closeSend(unknown)
    program.pump()
    program.advanceClock(ticks: 10)
    return program
  }

  static func slowSubscriber() -> CallProgram {
    var program = CallProgram(clientFlags: 0x01)
    program.call(
      service + "PutWidget",
      sending: WidgetWire.encodePutWidgetRequest(WidgetPut(id: "load", content: gaugeContent)))
    program.call(
      service + "Subscribe",
      sending: WidgetWire.encodeSubscribeRequest(SubscribeQuery(ids: ["load"], minIntervalMs: 100)))
    program.pump()
    program.readLimit(64)
    let publish = program.start(service + "PublishValues")
    for step in 0..<40 {
      program.send(WidgetWire.encodeValueUpdate(id: "load", value: Double(step)), on: publish)
      if step % 8 == 0 {
        program.pump()
        program.advanceClock(ticks: 3)
      }
    }
    program.closeSend(publish)
    program.readLimit(0)
    program.pump()
    return program
  }

  static func standardServices() -> CallProgram {
    var program = CallProgram()
    program.call(
      "/grpc.health.v1.Health/Check", sending: protobufString(field: 1, "gauge.v1.WidgetService"))
    program.call("/grpc.health.v1.Health/Watch", sending: protobufString(field: 1, ""))
    for version in ["v1", "v1alpha"] {
      let reflection = program.start(
        "/grpc.reflection.\(version).ServerReflection/ServerReflectionInfo")
      program.send(protobufString(field: 7, ""), on: reflection)
      program.send(protobufString(field: 4, "gauge.v1.WidgetService"), on: reflection)
      program.send(protobufString(field: 3, "gauge/v1/widget.proto"), on: reflection)
      program.pump()
      program.closeSend(reflection)
    }
    program.pump()
    program.serverLifecycle(1)
    program.pump()
    return program
  }

  /// gzip both ways: the server compresses responses (flag 0x01) and the
  /// client its requests.
  static func compressed() -> CallProgram {
    var program = CallProgram(serverFlags: 0x01, clientFlags: 0x02)
    program.call(
      service + "PutWidget",
      sending: WidgetWire.encodePutWidgetRequest(WidgetPut(id: "cpu", content: gaugeContent)))
    program.call(
      service + "Subscribe",
      sending: WidgetWire.encodeSubscribeRequest(SubscribeQuery(ids: ["cpu"])))
    program.call(
      service + "PublishValues", sending: WidgetWire.encodeValueUpdate(id: "cpu", value: 12))
    program.call(
      service + "ListWidgets", sending: WidgetWire.encodeListWidgetsRequest(ListQuery()))
    program.pump()
    return program
  }

  static func limitsAndShutdown() -> CallProgram {
    var program = CallProgram(serverFlags: 0x02 | 0x04 | 0x20)
    let put = program.start(service + "PutWidget")
    program.sendOversized(units: 1, on: put)
    program.call(
      service + "Subscribe", sending: WidgetWire.encodeSubscribeRequest(SubscribeQuery()))
    let publish = program.start(service + "PublishValues")
    program.send(WidgetWire.encodeValueUpdate(id: "a", value: 1), on: publish)
    program.pump()
    program.serverLifecycle(1)
    program.pump()
    program.serverLifecycle(2)
    program.pump()
    return program
  }

  /// A message with one length-delimited field.
  static func protobufString(field: UInt8, _ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    precondition(bytes.count < 128, "one-byte length")
    return [field << 3 | 2, UInt8(bytes.count)] + bytes
  }
}
