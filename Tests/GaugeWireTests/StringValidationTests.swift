import GaugeDomain
import GaugeWire
import Testing

@Suite struct StringValidationTests {
  static let invalidUTF8: [[UInt8]] = [
    [0x66, 0xFF],  // a byte that never occurs in UTF-8
    [0xC0, 0xAF],  // overlong "/"
    [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
    [0x61, 0xE2, 0x82],  // a sequence cut short
    [0x80],  // a lone continuation byte
  ]

  @Test(arguments: invalidUTF8)
  func invalidUTF8IsRejectedNamingTheField(bytes: [UInt8]) {
    let content = ProtoBytes().string(10, "fine").raw(11, bytes)
    let error = wireError(
      ProtoBytes().message(1, ProtoBytes().message(3, content)).bytes,
      with: WidgetWire.decodePutWidgetRequest)
    #expect(error?.message == "field widget.content.subtitle is not valid UTF-8")
  }

  @Test func repeatedFieldsAreNamedWithTheIndex() {
    let gauge = ProtoBytes()
      .string(5, "red")
      .message(6, ProtoBytes().string(2, "ok"))
      .string(5, "blue")
      .message(6, ProtoBytes().double(1, 1).raw(2, [0xFF]))
    let request = ProtoBytes().message(3, ProtoBytes().message(1, gauge))
    #expect(
      wireError(request.bytes, with: WidgetWire.decodeUpdateWidgetRequest)?.message
        == "field content.gauge.marks[1].label is not valid UTF-8")

    let gradient = ProtoBytes().message(
      3, ProtoBytes().message(1, ProtoBytes().string(5, "a").raw(5, [0xFE])))
    #expect(
      wireError(gradient.bytes, with: WidgetWire.decodeUpdateWidgetRequest)?.message
        == "field content.gauge.gradient[1] is not valid UTF-8")

    let clears = ProtoBytes().string(4, "content.label").raw(4, [0xC3])
    #expect(
      wireError(clears.bytes, with: WidgetWire.decodeUpdateWidgetRequest)?.message
        == "field clear_fields[1] is not valid UTF-8")
  }

  @Test func everyDecoderChecksItsStrings() {
    let bad: [UInt8] = [0xFF]
    #expect(
      wireError(ProtoBytes().raw(1, bad).bytes, with: WidgetWire.decodeGetWidgetRequest)?.message
        == "field id is not valid UTF-8")
    #expect(
      wireError(ProtoBytes().raw(1, bad).bytes, with: WidgetWire.decodeDeleteWidgetRequest)?.message
        == "field id is not valid UTF-8")
    #expect(
      wireError(ProtoBytes().raw(3, bad).bytes, with: WidgetWire.decodeListWidgetsRequest)?.message
        == "field page_token is not valid UTF-8")
    #expect(
      wireError(ProtoBytes().raw(1, bad).bytes, with: WidgetWire.decodeValueUpdate)?.message
        == "field id is not valid UTF-8")
    #expect(
      wireError(
        ProtoBytes().string(1, "a").raw(1, bad).bytes, with: WidgetWire.decodeSubscribeRequest)?
        .message == "field ids[1] is not valid UTF-8")
    #expect(
      wireError(
        ProtoBytes().message(1, ProtoBytes().raw(2, bad)).bytes,
        with: WidgetWire.decodePutWidgetRequest)?.message == "field widget.name is not valid UTF-8")
  }

  /// C strings end at NUL, so "a\0b" would silently become the id "a".
  @Test func anEmbeddedNULIsRejectedRatherThanTruncated() {
    #expect(
      wireError(ProtoBytes().raw(1, [0x61, 0x00, 0x62]).bytes, with: WidgetWire.decodeValueUpdate)?
        .message == "field id contains a NUL character")
  }

  @Test func multiByteUTF8IsAccepted() throws {
    let text = "Température °C ✓ 🚀 日本"
    let put = try decode(
      ProtoBytes().message(1, ProtoBytes().string(2, text)), with: WidgetWire.decodePutWidgetRequest
    )
    #expect(put.name == text)
  }
}
