import GaugeDomain
import GaugeWire
import Testing

@Suite struct PutWidgetRequestDecodingTests {
  @Test func everyFieldOfAGaugeWidget() throws {
    let gauge = ProtoBytes()
      .double(1, 42).double(2, -10).double(3, 100).varint(4, 5)
      .string(5, "red").string(5, "#00FF00")
      .message(6, ProtoBytes().double(1, 10).string(2, "low"))
      .message(6, ProtoBytes().double(1, 90))
      .string(7, "42 rpm").string(8, "min").string(9, "")
    let content = ProtoBytes()
      .message(1, gauge)
      .string(10, "CPU").string(11, "").string(12, "cpu").string(13, "%").varint(14, 1)
      .string(15, "red").string(16, "#000000").string(17, "white")
    // Server-assigned fields (4, 5, 6) are not part of a put.
    let widget = ProtoBytes()
      .string(1, "cpu-1").string(2, "CPU load").message(3, content)
      .varint(4, 7).varint(5, 1).varint(6, 2)

    let put = try decode(ProtoBytes().message(1, widget), with: WidgetWire.decodePutWidgetRequest)

    let expected = WidgetPut(
      id: "cpu-1", name: "CPU load",
      content: ContentPatch(
        template: .gauge(
          GaugePatch(
            value: 42, minValue: -10, maxValue: 100, style: 5, gradient: ["red", "#00FF00"],
            marks: [MarkPatch(value: 10, label: "low"), MarkPatch(value: 90)],
            currentValueLabel: "42 rpm", minLabel: "min", maxLabel: "")),
        label: "CPU", subtitle: "", icon: "cpu", unit: "%", trend: 1, accentColor: "red",
        backgroundColor: "#000000", textColor: "white"))
    #expect(put == expected)
  }

  /// Unpacking uses a 1 KiB scratch buffer before malloc: a request whose
  /// pieces outgrow it decodes the same, strings whole.
  @Test func aRequestLargerThanTheUnpackScratchDecodesWhole() throws {
    let label = String(repeating: "long label ", count: 300)
    let marks = (0..<40).map { MarkPatch(value: Double($0), label: "mark \($0)") }
    var gauge = ProtoBytes().double(1, 1).double(2, 0).double(3, 100)
    for mark in marks {
      gauge = gauge.message(6, ProtoBytes().double(1, mark.value!).string(2, mark.label!))
    }
    let widget = ProtoBytes()
      .string(1, "big").message(3, ProtoBytes().message(1, gauge).string(10, label))

    let put = try decode(ProtoBytes().message(1, widget), with: WidgetWire.decodePutWidgetRequest)

    #expect(put.content?.label == label)
    guard case .gauge(let decoded)? = put.content?.template else {
      Issue.record("expected a gauge")
      return
    }
    #expect(decoded.marks == marks)
  }

  @Test func absentWidgetAndEmptyMessageDecodeToNothing() throws {
    #expect(try decode([], with: WidgetWire.decodePutWidgetRequest) == WidgetPut())
    #expect(
      try decode(ProtoBytes().message(1, ProtoBytes()), with: WidgetWire.decodePutWidgetRequest)
        == WidgetPut())
  }

  @Test func absentEmptyAndSetStringsStayDistinct() throws {
    let widget = ProtoBytes().string(1, "").message(3, ProtoBytes().string(10, "").string(11, "s"))
    let put = try decode(ProtoBytes().message(1, widget), with: WidgetWire.decodePutWidgetRequest)
    #expect(put.id == "")
    #expect(put.name == nil)
    #expect(put.content == ContentPatch(label: "", subtitle: "s"))
    #expect(put.content?.icon == nil)
    #expect(put.content?.template == nil)
    #expect(put.content?.trend == nil)
  }

  @Test func anEmptyTemplateMessageStillSelectsTheTemplate() throws {
    let content = ProtoBytes().message(2, ProtoBytes())
    let put = try decode(
      ProtoBytes().message(1, ProtoBytes().message(3, content)),
      with: WidgetWire.decodePutWidgetRequest)
    #expect(put.content?.template == .progress(ProgressPatch()))
  }

  @Test func theLastOneofMemberOnTheWireWins() throws {
    let content = ProtoBytes()
      .message(1, ProtoBytes().double(1, 5))
      .message(3, ProtoBytes().double(1, 1).double(3, 9))
    let put = try decode(
      ProtoBytes().message(1, ProtoBytes().message(3, content)),
      with: WidgetWire.decodePutWidgetRequest)
    #expect(put.content?.template == .value(PlainValuePatch(value: 1, maxValue: 9)))
  }

  @Test func emptyRepeatedFieldsAreAbsent() throws {
    let content = ProtoBytes().message(1, ProtoBytes().double(1, 5))
    let put = try decode(
      ProtoBytes().message(1, ProtoBytes().message(3, content)),
      with: WidgetWire.decodePutWidgetRequest)
    #expect(put.content?.template == .gauge(GaugePatch(value: 5)))
  }

  @Test(arguments: [
    (wire: UInt64(99), expected: Int32(99)),
    (wire: UInt64(bitPattern: -3), expected: Int32(-3)),
    (wire: UInt64(0), expected: Int32(0)),
  ])
  func enumNumbersArePreservedRaw(wire: UInt64, expected: Int32) throws {
    let content = ProtoBytes().message(1, ProtoBytes().varint(4, wire)).varint(14, wire)
    let put = try decode(
      ProtoBytes().message(1, ProtoBytes().message(3, content)),
      with: WidgetWire.decodePutWidgetRequest)
    #expect(put.content?.trend == expected)
    #expect(put.content?.template == .gauge(GaugePatch(style: expected)))
  }

  @Test func unknownFieldsAreIgnored() throws {
    let widget = ProtoBytes().string(1, "w").string(99, "future").varint(100, 1)
    let put = try decode(ProtoBytes().message(1, widget), with: WidgetWire.decodePutWidgetRequest)
    #expect(put == WidgetPut(id: "w"))
  }
}
