import CProtobufC
import GaugeProtos
import Testing

@testable import ProtoJSON

/// What JSON → binary writes, read by protobuf-c itself: it must unpack to
/// the values the JSON gave, and pack back to the same bytes (protobuf-c
/// writes fields in number order, so the bytes are canonical).
@Suite struct ProtobufCAgreementTests {
  /// `body` on the message protobuf-c unpacks from `bytes`.
  private func unpacked<Message, Result>(
    _ bytes: [UInt8], _ descriptor: ProtobufCMessageDescriptor, as type: Message.Type,
    _ body: (UnsafePointer<Message>) throws -> Result
  ) throws -> Result {
    let message = try #require(
      withUnsafePointer(to: descriptor) { descriptor in
        bytes.withUnsafeBufferPointer {
          protobuf_c_message_unpack(descriptor, nil, $0.count, $0.baseAddress)
        }
      })
    defer { protobuf_c_message_free_unpacked(message, nil) }
    return try body(UnsafeRawPointer(message).assumingMemoryBound(to: Message.self))
  }

  private func packed(_ message: UnsafePointer<ProtobufCMessage>) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: protobuf_c_message_get_packed_size(message))
    _ = out.withUnsafeMutableBufferPointer { protobuf_c_message_pack(message, $0.baseAddress) }
    return out
  }

  @Test func unpacksAGaugeWidgetAndPacksItBackUnchanged() throws {
    let bytes = try Messages.widget.binary(SampleWire.gaugeWidgetJSON)
    try unpacked(bytes, gauge__v1__widget__descriptor, as: Gauge__V1__Widget.self) { widget in
      #expect(String(cString: widget.pointee.id) == "cpu")
      #expect(widget.pointee.revision == 7 && widget.pointee.has_revision != 0)
      #expect(widget.pointee.created_at_ms == 1_700_000_000_000)
      let content = try #require(widget.pointee.content)
      #expect(content.pointee.template_case == GAUGE__V1__CONTENT__TEMPLATE_GAUGE)
      #expect(content.pointee.trend == GAUGE__V1__TREND__UP)
      let gauge = try #require(content.pointee.gauge)
      #expect(gauge.pointee.has_min_value != 0 && gauge.pointee.min_value == 0)
      #expect(gauge.pointee.style == GAUGE__V1__GAUGE_STYLE__CIRCULAR)
      #expect(gauge.pointee.n_gradient == 2 && gauge.pointee.n_marks == 2)
      #expect(String(cString: gauge.pointee.marks[0]!.pointee.label) == "half")
      #expect(
        packed(UnsafeRawPointer(widget).assumingMemoryBound(to: ProtobufCMessage.self)) == bytes)
    }
  }

  @Test func writesNegativeInt32sAsProtobufCReadsThem() throws {
    let bytes = try Messages.listWidgetsRequest.binary(#"{"pageSize": -1, "idPrefix": "a"}"#)
    try unpacked(
      bytes, gauge__v1__list_widgets_request__descriptor, as: Gauge__V1__ListWidgetsRequest.self
    ) {
      #expect($0.pointee.has_page_size != 0 && $0.pointee.page_size == -1)
      #expect(String(cString: $0.pointee.id_prefix) == "a")
    }
  }

  @Test func writesAFalseBoolThatOverridesItsDefault() throws {
    let bytes = try Messages.subscribeRequest.binary(
      #"{"includeSnapshot": false, "ids": ["a", "b"]}"#)
    try unpacked(
      bytes, gauge__v1__subscribe_request__descriptor, as: Gauge__V1__SubscribeRequest.self
    ) {
      #expect($0.pointee.has_include_snapshot != 0 && $0.pointee.include_snapshot == 0)
      #expect($0.pointee.n_ids == 2 && String(cString: $0.pointee.ids[1]!) == "b")
    }
  }

  @Test func writesAnEmptyOneofMemberProtobufCSees() throws {
    let bytes = try Messages.widgetEvent.binary(#"{"revision": "5", "synced": {}}"#)
    try unpacked(bytes, gauge__v1__widget_event__descriptor, as: Gauge__V1__WidgetEvent.self) {
      #expect($0.pointee.event_case == GAUGE__V1__WIDGET_EVENT__EVENT_SYNCED)
      #expect($0.pointee.revision == 5)
    }
  }
}
