import GaugeDomain
import GaugeProtos

extension ContentPatch {
  init(_ content: Gauge__V1__Content) {
    self.init(
      template: TemplatePatch(content),
      label: optionalString(content.label),
      subtitle: optionalString(content.subtitle),
      icon: optionalString(content.icon),
      unit: optionalString(content.unit),
      // protobuf-c stores unknown enum numbers as they came; keep them so
      // validation can reject them by number.
      trend: optional(content.has_trend, Int32(bitPattern: content.trend.rawValue)),
      accentColor: optionalString(content.accent_color),
      backgroundColor: optionalString(content.background_color),
      textColor: optionalString(content.text_color)
    )
  }
}

extension TemplatePatch {
  /// nil when the oneof is not set. A set member whose message is empty is
  /// still a switch to that template.
  init?(_ content: Gauge__V1__Content) {
    switch content.template_case {
    case GAUGE__V1__CONTENT__TEMPLATE_GAUGE:
      self = .gauge(content.gauge.map { GaugePatch($0.pointee) } ?? GaugePatch())
    case GAUGE__V1__CONTENT__TEMPLATE_PROGRESS:
      self = .progress(content.progress.map { ProgressPatch($0.pointee) } ?? ProgressPatch())
    case GAUGE__V1__CONTENT__TEMPLATE_VALUE:
      self = .value(content.value.map { PlainValuePatch($0.pointee) } ?? PlainValuePatch())
    default:
      return nil
    }
  }
}

extension GaugePatch {
  init(_ gauge: Gauge__V1__Gauge) {
    let gradient = strings(gauge.n_gradient, gauge.gradient)
    let marks = messages(gauge.n_marks, gauge.marks).map(MarkPatch.init)
    self.init(
      value: optional(gauge.has_value, gauge.value),
      minValue: optional(gauge.has_min_value, gauge.min_value),
      maxValue: optional(gauge.has_max_value, gauge.max_value),
      style: optional(gauge.has_style, Int32(bitPattern: gauge.style.rawValue)),
      // proto2 cannot tell an empty repeated field from an absent one.
      gradient: gradient.isEmpty ? nil : gradient,
      marks: gauge.n_marks == 0 ? nil : marks,
      currentValueLabel: optionalString(gauge.current_value_label),
      minLabel: optionalString(gauge.min_label),
      maxLabel: optionalString(gauge.max_label)
    )
  }
}

extension MarkPatch {
  init(_ mark: Gauge__V1__Mark) {
    self.init(value: optional(mark.has_value, mark.value), label: optionalString(mark.label))
  }
}

extension ProgressPatch {
  init(_ progress: Gauge__V1__Progress) {
    self.init(value: optional(progress.has_value, progress.value))
  }
}

extension PlainValuePatch {
  init(_ value: Gauge__V1__Value) {
    self.init(
      value: optional(value.has_value, value.value),
      minValue: optional(value.has_min_value, value.min_value),
      maxValue: optional(value.has_max_value, value.max_value)
    )
  }
}
