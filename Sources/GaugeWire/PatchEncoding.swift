import GaugeDomain
import GaugeProtos

// Builds the protobuf-c struct graph of a request's patch inside an arena:
// what a client sends. Absent (nil) fields stay absent on the wire, raw enum
// numbers go out as they are, so the server judges exactly what was asked.

extension EncodeArena {
  mutating func contentPatch(_ patch: ContentPatch) -> UnsafeMutablePointer<Gauge__V1__Content> {
    let message = self.message(gauge__v1__content__init)
    switch patch.template {
    case .gauge(let gauge)?:
      message.pointee.template_case = GAUGE__V1__CONTENT__TEMPLATE_GAUGE
      message.pointee.gauge = gaugePatch(gauge)
    case .progress(let progress)?:
      message.pointee.template_case = GAUGE__V1__CONTENT__TEMPLATE_PROGRESS
      let progressMessage = self.message(gauge__v1__progress__init)
      set(progress.value, &progressMessage.pointee.has_value, &progressMessage.pointee.value)
      message.pointee.progress = progressMessage
    case .value(let value)?:
      message.pointee.template_case = GAUGE__V1__CONTENT__TEMPLATE_VALUE
      let valueMessage = self.message(gauge__v1__value__init)
      set(value.value, &valueMessage.pointee.has_value, &valueMessage.pointee.value)
      set(value.minValue, &valueMessage.pointee.has_min_value, &valueMessage.pointee.min_value)
      set(value.maxValue, &valueMessage.pointee.has_max_value, &valueMessage.pointee.max_value)
      message.pointee.value = valueMessage
    case nil:
      break
    }
    message.pointee.label = cString(patch.label)
    message.pointee.subtitle = cString(patch.subtitle)
    message.pointee.icon = cString(patch.icon)
    message.pointee.unit = cString(patch.unit)
    if let trend = patch.trend {
      message.pointee.has_trend = 1
      message.pointee.trend = Gauge__V1__Trend(UInt32(bitPattern: trend))
    }
    message.pointee.accent_color = cString(patch.accentColor)
    message.pointee.background_color = cString(patch.backgroundColor)
    message.pointee.text_color = cString(patch.textColor)
    return message
  }

  private mutating func gaugePatch(_ gauge: GaugePatch) -> UnsafeMutablePointer<Gauge__V1__Gauge> {
    let message = self.message(gauge__v1__gauge__init)
    set(gauge.value, &message.pointee.has_value, &message.pointee.value)
    set(gauge.minValue, &message.pointee.has_min_value, &message.pointee.min_value)
    set(gauge.maxValue, &message.pointee.has_max_value, &message.pointee.max_value)
    if let style = gauge.style {
      message.pointee.has_style = 1
      message.pointee.style = Gauge__V1__GaugeStyle(UInt32(bitPattern: style))
    }
    let gradient = (gauge.gradient ?? []).map { Optional(cString($0)) }
    message.pointee.n_gradient = gradient.count
    message.pointee.gradient = array(of: gradient)
    let marks = (gauge.marks ?? []).map { mark in
      let markMessage = self.message(gauge__v1__mark__init)
      set(mark.value, &markMessage.pointee.has_value, &markMessage.pointee.value)
      markMessage.pointee.label = cString(mark.label)
      return Optional(markMessage)
    }
    message.pointee.n_marks = marks.count
    message.pointee.marks = array(of: marks)
    message.pointee.current_value_label = cString(gauge.currentValueLabel)
    message.pointee.min_label = cString(gauge.minLabel)
    message.pointee.max_label = cString(gauge.maxLabel)
    return message
  }

  private func set<Value>(_ value: Value?, _ has: inout protobuf_c_boolean, _ field: inout Value) {
    guard let value else { return }
    has = 1
    field = value
  }
}
