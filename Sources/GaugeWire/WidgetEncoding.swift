import GaugeDomain
import GaugeProtos

// Builds the protobuf-c struct graph of a strict Widget inside an arena.

extension EncodeArena {
  mutating func widget(_ widget: Widget) -> UnsafeMutablePointer<Gauge__V1__Widget> {
    let message = self.message(gauge__v1__widget__init)
    message.pointee.id = cString(widget.id)
    message.pointee.name = cString(widget.name)
    message.pointee.content = content(widget.content)
    message.pointee.has_revision = 1
    message.pointee.revision = widget.revision
    message.pointee.has_created_at_ms = 1
    message.pointee.created_at_ms = widget.createdAtMs
    message.pointee.has_updated_at_ms = 1
    message.pointee.updated_at_ms = widget.updatedAtMs
    // Written only when set, as the client sent it, and `stale` only when
    // true: widgets without the feature read back as they always did.
    if let staleAfterMs = widget.staleAfterMs {
      message.pointee.has_stale_after_ms = 1
      message.pointee.stale_after_ms = UInt32(clamping: staleAfterMs)
    }
    if widget.stale {
      message.pointee.has_stale = 1
      message.pointee.stale = 1
    }
    return message
  }

  private mutating func content(_ content: Content) -> UnsafeMutablePointer<Gauge__V1__Content> {
    let message = self.message(gauge__v1__content__init)
    switch content.template {
    case .gauge(let gauge):
      message.pointee.template_case = GAUGE__V1__CONTENT__TEMPLATE_GAUGE
      message.pointee.gauge = self.gauge(gauge)
    case .progress(let progress):
      message.pointee.template_case = GAUGE__V1__CONTENT__TEMPLATE_PROGRESS
      message.pointee.progress = self.progress(progress)
    case .value(let value):
      message.pointee.template_case = GAUGE__V1__CONTENT__TEMPLATE_VALUE
      message.pointee.value = plainValue(value)
    }
    message.pointee.label = cString(content.label)
    message.pointee.subtitle = cString(content.subtitle)
    message.pointee.icon = cString(content.icon)
    message.pointee.unit = cString(content.unit)
    // Zero-valued enums are left out, as the client sent them: a widget
    // reads back the way it was written.
    message.pointee.has_trend = content.trend == .unspecified ? 0 : 1
    message.pointee.trend = Gauge__V1__Trend(UInt32(bitPattern: content.trend.rawValue))
    message.pointee.accent_color = cString(content.accentColor)
    message.pointee.background_color = cString(content.backgroundColor)
    message.pointee.text_color = cString(content.textColor)
    return message
  }

  private mutating func gauge(_ gauge: Gauge) -> UnsafeMutablePointer<Gauge__V1__Gauge> {
    let message = self.message(gauge__v1__gauge__init)
    message.pointee.has_value = 1
    message.pointee.value = gauge.value
    message.pointee.has_min_value = 1
    message.pointee.min_value = gauge.minValue
    message.pointee.has_max_value = 1
    message.pointee.max_value = gauge.maxValue
    message.pointee.has_style = gauge.style == .automatic ? 0 : 1
    message.pointee.style = Gauge__V1__GaugeStyle(UInt32(bitPattern: gauge.style.rawValue))
    let gradient = gauge.gradient.map { Optional(cString($0)) }
    message.pointee.n_gradient = gradient.count
    message.pointee.gradient = array(of: gradient)
    let marks = gauge.marks.map { Optional(mark($0)) }
    message.pointee.n_marks = marks.count
    message.pointee.marks = array(of: marks)
    message.pointee.current_value_label = cString(gauge.currentValueLabel)
    message.pointee.min_label = cString(gauge.minLabel)
    message.pointee.max_label = cString(gauge.maxLabel)
    return message
  }

  private mutating func mark(_ mark: Mark) -> UnsafeMutablePointer<Gauge__V1__Mark> {
    let message = self.message(gauge__v1__mark__init)
    message.pointee.has_value = 1
    message.pointee.value = mark.value
    message.pointee.label = cString(mark.label)
    return message
  }

  private mutating func progress(_ progress: Progress) -> UnsafeMutablePointer<Gauge__V1__Progress>
  {
    let message = self.message(gauge__v1__progress__init)
    message.pointee.has_value = 1
    message.pointee.value = progress.value
    return message
  }

  private mutating func plainValue(_ value: PlainValue) -> UnsafeMutablePointer<Gauge__V1__Value> {
    let message = self.message(gauge__v1__value__init)
    message.pointee.has_value = 1
    message.pointee.value = value.value
    if let minValue = value.minValue {
      message.pointee.has_min_value = 1
      message.pointee.min_value = minValue
    }
    if let maxValue = value.maxValue {
      message.pointee.has_max_value = 1
      message.pointee.max_value = maxValue
    }
    return message
  }
}
