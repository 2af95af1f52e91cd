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

  @Test func aLargeMonotonicTimestampSurvivesExactly() {
    var widget = SampleWidgets.value
    widget.content.template = .value(PlainValue(value: 8_123_456_789_012_345))
    widget.revision = 1 << 40
    #expect(
      peek(WidgetWire.encodeWidgetEvent(.upsert(widget)))
        == .upsert(revision: 1 << 40, value: 8_123_456_789_012_345))
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
