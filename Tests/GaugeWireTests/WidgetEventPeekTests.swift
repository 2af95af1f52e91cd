import GaugeDomain
import GaugeWire
import Testing

/// The peek reads what the server's encoder wrote, the same way a full
/// decode does.
@Suite struct WidgetEventPeekTests {
  private func peek(_ bytes: [UInt8]) -> WidgetEventPeek? {
    bytes.withUnsafeBytes { WidgetWire.peekWidgetEvent($0) }
  }

  @Test(arguments: [SampleWidgets.gauge, SampleWidgets.progress, SampleWidgets.value])
  func upsertsGiveTheRevisionAndTheTemplateValue(widget: Widget) {
    let expected: Double =
      switch widget.content.template {
      case .gauge(let gauge): gauge.value
      case .progress(let progress): progress.value
      case .value(let value): value.value
      }
    #expect(
      peek(WidgetWire.encodeWidgetEvent(.upsert(widget)))
        == .upsert(revision: widget.revision, value: expected))
  }

  @Test func aValueDeltaGivesItsRevisionAndValue() {
    #expect(
      peek(
        WidgetWire.encodeWidgetEvent(
          .value(id: "cpu", value: 42.5, updatedAtMs: 1_700_000_000_000, revision: 77)))
        == .value(revision: 77, value: 42.5))
  }

  @Test func aLargeMonotonicTimestampSurvivesExactly() {
    var widget = SampleWidgets.value
    widget.content.template = .value(PlainValue(value: 8_123_456_789_012_345))
    widget.revision = 1 << 40
    #expect(
      peek(WidgetWire.encodeWidgetEvent(.upsert(widget)))
        == .upsert(revision: 1 << 40, value: 8_123_456_789_012_345))
  }

  @Test func aTenByteVarintIsReadWhole() {
    // UInt64.max takes all ten bytes a varint may have.
    #expect(
      peek(WidgetWire.encodeWidgetEvent(.synced(revision: .max))) == .synced(revision: .max))
    #expect(
      peek(ProtoBytes().varint(1, 1 << 63).message(4, ProtoBytes()).bytes)
        == .synced(revision: 1 << 63))
  }

  @Test func markersAndRemovalsGiveTheirKindAndRevision() {
    #expect(peek(WidgetWire.encodeWidgetEvent(.synced(revision: 9))) == .synced(revision: 9))
    #expect(peek(WidgetWire.encodeWidgetEvent(.reset(revision: 3))) == .reset(revision: 3))
    #expect(
      peek(WidgetWire.encodeWidgetEvent(.removed(id: "cpu", revision: 12)))
        == .removed(revision: 12))
  }

  @Test func anUpsertWithoutContentHasNoValue() {
    let bytes = ProtoBytes().varint(1, 4).message(2, ProtoBytes().string(1, "w")).bytes
    #expect(peek(bytes) == .upsert(revision: 4, value: nil))
  }

  @Test func fieldsInAnyOrderAndUnknownFieldsAreRead() {
    let widget = ProtoBytes().message(3, ProtoBytes().message(3, ProtoBytes().double(1, 2.5)))
      .string(1, "w").varint(99, 1)
    let bytes = ProtoBytes().message(2, widget).varint(7, 1).varint(1, 30).bytes
    #expect(peek(bytes) == .upsert(revision: 30, value: 2.5))
  }

  @Test func unknownFieldsOfEveryWireTypeAreSteppedOver() {
    // A fixed32 has no builder here: its key (wire type 5) and four bytes.
    let fixed32: [UInt8] = [0x7D, 1, 2, 3, 4]  // field 15
    let template = ProtoBytes().varint(5, 300).double(9, 1).double(1, 7.25)
    var content = ProtoBytes().string(4, "label").message(1, template)
    content = ProtoBytes(bytes: content.bytes + fixed32)
    let widget = ProtoBytes().string(1, "w").double(20, 3).message(3, content).varint(6, 1 << 40)
    var event = ProtoBytes().raw(9, [1, 2, 3]).message(2, widget)
    event = ProtoBytes(bytes: event.bytes + fixed32).varint(1, 5)
    #expect(peek(event.bytes) == .upsert(revision: 5, value: 7.25))
  }

  @Test(
    arguments: [
      [0x0B, 0x0C],  // a group (wire types 3 and 4), which protobuf-c refuses too
      [0x0E],  // wire type 6
      [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // 11-byte varint
      [0x7D, 1, 2],  // a fixed32 cut short
    ] as [[UInt8]])
  func unreadableUnknownFieldsGiveNil(bytes: [UInt8]) {
    let upsert = ProtoBytes().message(2, ProtoBytes().string(1, "w")).bytes
    #expect(peek(upsert + bytes) == nil)
  }

  @Test(
    arguments: [
      [],  // no event set
      [0x08, 0x05],  // a revision alone
      [0x12, 0x05, 0x1A],  // an upsert cut short
      [0x12, 0x03, 0x1A, 0x01, 0xFF],  // a content whose bytes are not fields
    ] as [[UInt8]])
  func malformedOrEmptyEventsGiveNil(bytes: [UInt8]) {
    #expect(peek(bytes) == nil)
  }
}
