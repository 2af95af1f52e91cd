import GaugeDomain
import GaugeProtos
import GaugeWire
import Testing

@Suite struct WidgetEncodingTests {
  @Test func everyFieldOfAGaugeWidgetReadsBackThroughProtobufC() throws {
    let bytes = WidgetWire.encodeWidget(SampleWidgets.gauge)
    let checked: Bool? = unpackedWithC(
      bytes, gauge__v1__widget__unpack, gauge__v1__widget__free_unpacked
    ) {
      widget in
      #expect(string(widget.id) == "cpu-1")
      #expect(string(widget.name) == "CPU load")
      #expect(widget.has_revision == 1 && widget.revision == 17)
      #expect(widget.has_created_at_ms == 1 && widget.created_at_ms == 1_700_000_000_000)
      #expect(widget.has_updated_at_ms == 1 && widget.updated_at_ms == -1)
      guard let content = widget.content?.pointee else { return false }
      #expect(string(content.label) == "CPU")
      #expect(string(content.subtitle) == "all cores")
      #expect(string(content.icon) == "cpu")
      #expect(string(content.unit) == "%")
      #expect(content.has_trend == 1 && content.trend == GAUGE__V1__TREND__DOWN)
      #expect(string(content.accent_color) == "red")
      #expect(string(content.background_color) == "#000000")
      #expect(string(content.text_color) == "white")
      #expect(content.template_case == GAUGE__V1__CONTENT__TEMPLATE_GAUGE)
      guard let gauge = content.gauge?.pointee else { return false }
      #expect(gauge.has_value == 1 && gauge.value == 42.5)
      #expect(gauge.has_min_value == 1 && gauge.min_value == -10)
      #expect(gauge.has_max_value == 1 && gauge.max_value == 100)
      #expect(
        gauge.has_style == 1 && gauge.style == GAUGE__V1__GAUGE_STYLE__ACCESSORY_CIRCULAR_CAPACITY)
      #expect(strings(gauge.n_gradient, gauge.gradient) == ["green", "#FF0000"])
      let marks = UnsafeBufferPointer(start: gauge.marks, count: gauge.n_marks).map { $0!.pointee }
      #expect(marks.count == 2)
      #expect(marks.map(\.has_value) == [1, 1])
      #expect(marks.map(\.value) == [10, 90])
      #expect(marks.map { string($0.label) } == ["low", nil])
      #expect(string(gauge.current_value_label) == "42.5 %")
      #expect(string(gauge.min_label) == "")
      #expect(string(gauge.max_label) == "max")
      return true
    }
    #expect(checked == true)
  }

  @Test func nilOptionalsAreLeftAbsent() throws {
    let bytes = WidgetWire.encodeWidget(SampleWidgets.value)
    let checked: Bool? = unpackedWithC(
      bytes, gauge__v1__widget__unpack, gauge__v1__widget__free_unpacked
    ) {
      widget in
      guard let content = widget.content?.pointee, let value = content.value?.pointee else {
        return false
      }
      #expect(content.template_case == GAUGE__V1__CONTENT__TEMPLATE_VALUE)
      #expect(content.label == nil && content.subtitle == nil && content.icon == nil)
      #expect(content.unit == nil && content.accent_color == nil)
      #expect(content.background_color == nil && content.text_color == nil)
      // Left out at its zero value, as a client that never set it sent it.
      #expect(content.has_trend == 0)
      #expect(value.has_value == 1 && value.value == 3)
      #expect(value.has_min_value == 0)
      #expect(value.has_max_value == 1 && value.max_value == 8)
      return true
    }
    #expect(checked == true)
  }

  @Test func aTinyWidgetMatchesHandComputedBytes() {
    let widget = Widget(
      id: "a", name: "b", content: Content(template: .progress(Progress(value: 0.5))),
      revision: 1, createdAtMs: 2, updatedAtMs: 3)
    let expected: [UInt8] = [
      0x0A, 0x01, 0x61,  // id "a"
      0x12, 0x01, 0x62,  // name "b"
      0x1A, 0x0B,  // content, 11 bytes (trend TREND_UNSPECIFIED left out):
      0x12, 0x09, 0x09, 0, 0, 0, 0, 0, 0, 0xE0, 0x3F,  //   progress { value 0.5 }
      0x20, 0x01,  // revision 1
      0x28, 0x02,  // created_at_ms 2
      0x30, 0x03,  // updated_at_ms 3
    ]
    #expect(WidgetWire.encodeWidget(widget) == expected)
  }

  /// An encoded widget sent back as a PutWidgetRequest carries the same content.
  @Test(arguments: [SampleWidgets.gauge, SampleWidgets.progress, SampleWidgets.value])
  func anEncodedWidgetDecodesAsAPut(widget: Widget) throws {
    let request = ProtoBytes().raw(1, WidgetWire.encodeWidget(widget))
    let put = try decode(request, with: WidgetWire.decodePutWidgetRequest)
    #expect(put.id == widget.id)
    #expect(put.name == widget.name)
    #expect(put.content == ContentPatch(strict: widget.content))
  }
}

extension ContentPatch {
  /// What a strict content looks like once it has crossed the wire.
  init(strict content: Content) {
    let template: TemplatePatch =
      switch content.template {
      case .gauge(let gauge):
        .gauge(
          GaugePatch(
            value: gauge.value, minValue: gauge.minValue, maxValue: gauge.maxValue,
            style: gauge.style == .automatic ? nil : gauge.style.rawValue,
            gradient: gauge.gradient.isEmpty ? nil : gauge.gradient,
            marks: gauge.marks.isEmpty
              ? nil : gauge.marks.map { MarkPatch(value: $0.value, label: $0.label) },
            currentValueLabel: gauge.currentValueLabel, minLabel: gauge.minLabel,
            maxLabel: gauge.maxLabel))
      case .progress(let progress): .progress(ProgressPatch(value: progress.value))
      case .value(let value):
        .value(
          PlainValuePatch(value: value.value, minValue: value.minValue, maxValue: value.maxValue))
      }
    self.init(
      template: template, label: content.label, subtitle: content.subtitle, icon: content.icon,
      unit: content.unit, trend: content.trend == .unspecified ? nil : content.trend.rawValue,
      accentColor: content.accentColor,
      backgroundColor: content.backgroundColor, textColor: content.textColor)
  }
}
