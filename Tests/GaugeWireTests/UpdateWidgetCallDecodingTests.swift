import GaugeDomain
import GaugeWire
import Testing

@Suite struct UpdateWidgetCallDecodingTests {
  private static let id = ProtoBytes().string(1, "cpu")

  private static func request(template field: UInt64, _ template: ProtoBytes) -> ProtoBytes {
    id.message(3, ProtoBytes().message(field, template))
  }

  private static let gaugeValue = request(template: 1, ProtoBytes().double(1, 0.5))

  @Test(arguments: [
    (UInt64(1), TemplateKind.gauge), (2, .progress), (3, .value),
  ])
  func aTemplateValueAloneIsReadAsOne(field: UInt64, kind: TemplateKind) throws {
    let message = Self.request(template: field, ProtoBytes().double(1, 0.5))

    let call = try decode(message, with: WidgetWire.decodeUpdateWidgetCall)

    let expected = TemplateValueUpdate(id: "cpu", kind: kind, value: 0.5)
    #expect(call == .templateValue(expected))
    // The service may run it either way: both must be the same request.
    #expect(
      expected.widgetUpdate == (try decode(message, with: WidgetWire.decodeUpdateWidgetRequest)))
  }

  /// Protobuf's rules are protobuf-c's: a repeated value field, the last wins.
  @Test func theLastOfRepeatedValuesWins() throws {
    let message = Self.request(template: 1, ProtoBytes().double(1, 0.5).double(1, 0.75))
    #expect(
      try decode(message, with: WidgetWire.decodeUpdateWidgetCall)
        == .templateValue(TemplateValueUpdate(id: "cpu", kind: .gauge, value: 0.75)))
  }

  /// Every other field, alone with an id and a value, makes the request a
  /// patch: the one `decodeUpdateWidgetRequest` reads.
  @Test func anyOtherFieldMakesItAPatch() throws {
    // Field order does not matter to protobuf: the extra field follows.
    let content = { (extra: (ProtoBytes) -> ProtoBytes) in
      Self.id.message(3, extra(ProtoBytes().message(1, ProtoBytes().double(1, 0.5))))
    }
    let gauge = { (extra: (ProtoBytes) -> ProtoBytes) in
      Self.request(template: 1, extra(ProtoBytes().double(1, 0.5)))
    }
    let cases: [(String, ProtoBytes)] = [
      ("no id", ProtoBytes().message(3, ProtoBytes().message(1, ProtoBytes().double(1, 0.5)))),
      ("name", Self.gaugeValue.string(2, "CPU")),
      ("clear_fields", Self.gaugeValue.string(4, "content.subtitle")),
      ("no template", Self.id.message(3, ProtoBytes().string(10, "CPU"))),
      ("an empty template", Self.request(template: 1, ProtoBytes())),
      ("no content", Self.id),
      ("label", content { $0.string(10, "CPU") }),
      ("subtitle", content { $0.string(11, "core 0") }),
      ("icon", content { $0.string(12, "cpu") }),
      ("unit", content { $0.string(13, "%") }),
      ("trend", content { $0.varint(14, 1) }),
      ("accent_color", content { $0.string(15, "red") }),
      ("background_color", content { $0.string(16, "000000") }),
      ("text_color", content { $0.string(17, "ffffff") }),
      ("gauge min_value", gauge { $0.double(2, 0) }),
      ("gauge max_value", gauge { $0.double(3, 1) }),
      ("gauge style", gauge { $0.varint(4, 1) }),
      ("gauge gradient", gauge { $0.string(5, "red") }),
      ("gauge marks", gauge { $0.message(6, ProtoBytes().double(1, 0.2)) }),
      ("gauge current_value_label", gauge { $0.string(7, "half") }),
      ("gauge min_label", gauge { $0.string(8, "0") }),
      ("gauge max_label", gauge { $0.string(9, "1") }),
      ("value min_value", Self.request(template: 3, ProtoBytes().double(1, 0.5).double(2, 0))),
      ("value max_value", Self.request(template: 3, ProtoBytes().double(1, 0.5).double(3, 1))),
      ("progress without a value", Self.request(template: 2, ProtoBytes())),
    ]
    for (name, message) in cases {
      let patch = try decode(message, with: WidgetWire.decodeUpdateWidgetRequest)
      #expect(
        try decode(message, with: WidgetWire.decodeUpdateWidgetCall) == .patch(patch),
        "\(name)")
    }
  }

  /// The usual shape is read without protobuf-c; these are that shape
  /// with one thing changed, which protobuf-c must then judge. Each must
  /// come out as the patch decoder reads it, or fail as it does.
  @Test func shapesBesideTheUsualOneAreJudgedByProtobufC() throws {
    let value = ProtoBytes().message(3, ProtoBytes().message(1, ProtoBytes().double(1, 0.5)))
    let cases: [(String, ProtoBytes)] = [
      ("content first", value.string(1, "cpu")),
      ("the id twice", Self.gaugeValue.string(1, "fan")),
      ("content twice", Self.gaugeValue.message(3, ProtoBytes().string(10, "CPU"))),
      (
        "two templates",
        Self.id.message(
          3,
          ProtoBytes().message(1, ProtoBytes().double(1, 0.5))
            .message(2, ProtoBytes().double(1, 0.25)))
      ),
      ("a float for the value", Self.request(template: 1, ProtoBytes().raw(1, [0, 0, 0, 0]))),
      ("the value as a varint", Self.request(template: 1, ProtoBytes().varint(1, 1))),
      (
        "the id as a varint",
        ProtoBytes().varint(1, 7).message(
          3,
          ProtoBytes().message(
            1, ProtoBytes().double(1, 0.5)))
      ),
      (
        "an empty id",
        ProtoBytes().string(1, "").message(
          3,
          ProtoBytes().message(
            1, ProtoBytes().double(1, 0.5)))
      ),
    ]
    for (name, message) in cases {
      let patch = Result { () throws(WireError) in
        try decode(message, with: WidgetWire.decodeUpdateWidgetRequest)
      }
      let call = Result { () throws(WireError) in
        try decode(message, with: WidgetWire.decodeUpdateWidgetCall)
      }
      switch (patch, call) {
      case (.success(let patch), .success(.templateValue(let update))):
        #expect(update.widgetUpdate == patch, "\(name)")
      case (.success(let patch), .success(.patch(let read))):
        #expect(read == patch, "\(name)")
      case (.failure(let expected), .failure(let error)):
        #expect(error == expected, "\(name)")
      default:
        Issue.record("\(name): \(call) is not \(patch)")
      }
    }
  }

  @Test(arguments: [[UInt8(0xff)], Array("a\0b".utf8)])
  func theIdIsCheckedLikeThePatchPath(id: [UInt8]) {
    let message = ProtoBytes().raw(1, id).message(
      3, ProtoBytes().message(1, ProtoBytes().double(1, 0.5)))
    #expect(
      wireError(message.bytes, with: WidgetWire.decodeUpdateWidgetCall)
        == wireError(message.bytes, with: WidgetWire.decodeUpdateWidgetRequest))
    #expect(wireError(message.bytes, with: WidgetWire.decodeUpdateWidgetCall) != nil)
  }

  @Test func aTruncatedRequestFailsLikeThePatchPath() {
    let bytes = Array(Self.gaugeValue.bytes.dropLast())
    #expect(
      wireError(bytes, with: WidgetWire.decodeUpdateWidgetCall)
        == wireError(bytes, with: WidgetWire.decodeUpdateWidgetRequest))
    #expect(wireError(bytes, with: WidgetWire.decodeUpdateWidgetCall) != nil)
  }
}
