import GaugeDomain
import GaugeProtos

// A widget as a server sends it, read on the client side. Unlike
// `decodeWidget` (storage, which re-validates), this reads leniently: the
// server validated what it sends, and a newer server may use an enum number
// this build does not know, which reads as its zero value rather than
// failing a whole listing. A missing scalar reads as zero. Only a widget
// without any template cannot be represented, and is an error.

extension Widget {
  init(response message: Gauge__V1__Widget) throws(WireError) {
    let id = optionalString(message.id) ?? ""
    guard let content = message.content?.pointee, let template = Template(content) else {
      throw WireError(message: "widget \"\(id)\" has no content template")
    }
    self.init(
      id: id,
      name: optionalString(message.name) ?? "",
      content: Content(
        template: template,
        label: optionalString(content.label),
        subtitle: optionalString(content.subtitle),
        icon: optionalString(content.icon),
        unit: optionalString(content.unit),
        trend: Trend(rawValue: Int32(bitPattern: content.trend.rawValue)) ?? .unspecified,
        accentColor: optionalString(content.accent_color),
        backgroundColor: optionalString(content.background_color),
        textColor: optionalString(content.text_color)),
      revision: message.revision,
      createdAtMs: message.created_at_ms,
      updatedAtMs: message.updated_at_ms,
      staleAfterMs: message.has_stale_after_ms != 0 ? Int64(message.stale_after_ms) : nil,
      stale: message.has_stale != 0 && message.stale != 0)
  }
}

extension Template {
  fileprivate init?(_ content: Gauge__V1__Content) {
    switch content.template_case {
    case GAUGE__V1__CONTENT__TEMPLATE_GAUGE:
      guard let gauge = content.gauge?.pointee else { return nil }
      self = .gauge(
        Gauge(
          value: gauge.value, minValue: gauge.min_value, maxValue: gauge.max_value,
          style: GaugeStyle(rawValue: Int32(bitPattern: gauge.style.rawValue)) ?? .automatic,
          gradient: strings(gauge.n_gradient, gauge.gradient),
          marks: messages(gauge.n_marks, gauge.marks).map {
            Mark(value: $0.value, label: optionalString($0.label))
          },
          currentValueLabel: optionalString(gauge.current_value_label),
          minLabel: optionalString(gauge.min_label),
          maxLabel: optionalString(gauge.max_label)))
    case GAUGE__V1__CONTENT__TEMPLATE_PROGRESS:
      self = .progress(Progress(value: content.progress?.pointee.value ?? 0))
    case GAUGE__V1__CONTENT__TEMPLATE_VALUE:
      guard let value = content.value?.pointee else { return nil }
      self = .value(
        PlainValue(
          value: value.value, minValue: optional(value.has_min_value, value.min_value),
          maxValue: optional(value.has_max_value, value.max_value)))
    default:
      return nil
    }
  }
}
