import CProtobufC
import GaugeDomain
import GaugeProtos
import GaugeWire
import Glibc
import Testing

@Suite struct UpdateWidgetRequestDecodingTests {
  /// The request is built and packed by protobuf-c, as a C client would.
  @Test func aRequestPackedByProtobufC() throws {
    let cStrings = CStrings()
    var progress = Gauge__V1__Progress()
    gauge__v1__progress__init(&progress)
    progress.has_value = 1
    progress.value = 0.25
    var content = Gauge__V1__Content()
    gauge__v1__content__init(&content)
    content.has_trend = 1
    content.trend = GAUGE__V1__TREND__FLAT
    content.label = cStrings.make("")
    var clearFields: [UnsafeMutablePointer<CChar>?] = [
      cStrings.make("content.subtitle"), cStrings.make("content.gauge.marks"),
    ]
    let bytes = withUnsafeMutablePointer(to: &progress) { progress in
      content.template_case = GAUGE__V1__CONTENT__TEMPLATE_PROGRESS
      content.progress = progress
      return withUnsafeMutablePointer(to: &content) { content in
        clearFields.withUnsafeMutableBufferPointer { clearFields in
          var request = Gauge__V1__UpdateWidgetRequest()
          gauge__v1__update_widget_request__init(&request)
          request.id = cStrings.make("disk-2")
          request.content = content
          request.n_clear_fields = clearFields.count
          request.clear_fields = clearFields.baseAddress
          var packed = [UInt8](
            repeating: 0, count: gauge__v1__update_widget_request__get_packed_size(&request))
          _ = gauge__v1__update_widget_request__pack(&request, &packed)
          return packed
        }
      }
    }

    let update = try decode(bytes, with: WidgetWire.decodeUpdateWidgetRequest)

    #expect(
      update
        == WidgetUpdate(
          id: "disk-2", name: nil,
          content: ContentPatch(
            template: .progress(ProgressPatch(value: 0.25)), label: "", trend: 3),
          clearFields: ["content.subtitle", "content.gauge.marks"]))
  }

  @Test func anEmptyRequestHasNoFieldsAndNoClears() throws {
    #expect(try decode([], with: WidgetWire.decodeUpdateWidgetRequest) == WidgetUpdate())
  }

  @Test func gaugeFieldsMergeInFieldOrder() throws {
    let request = ProtoBytes()
      .string(2, "renamed")
      .message(3, ProtoBytes().message(1, ProtoBytes().string(5, "a").string(5, "b").varint(4, 7)))
      .string(4, "content.gauge.min_label")
    let update = try decode(request, with: WidgetWire.decodeUpdateWidgetRequest)
    #expect(
      update
        == WidgetUpdate(
          name: "renamed",
          content: ContentPatch(template: .gauge(GaugePatch(style: 7, gradient: ["a", "b"]))),
          clearFields: ["content.gauge.min_label"]))
  }
}

/// C strings that live as long as this object, for building C requests.
final class CStrings {
  private var pointers: [UnsafeMutablePointer<CChar>] = []

  func make(_ string: String) -> UnsafeMutablePointer<CChar> {
    let pointer = strdup(string)!
    pointers.append(pointer)
    return pointer
  }

  deinit {
    pointers.forEach { free($0) }
  }
}
