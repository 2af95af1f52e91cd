// Requests as they arrive: every field optional, mirroring proto2 presence.
// `nil` means "absent" (keep on update); a repeated field is absent when nil
// and replaces the stored list when non-nil (the wire maps an empty repeated
// field to nil, since proto2 cannot tell empty from absent).

public struct ContentPatch: Sendable, Equatable {
  public var template: TemplatePatch?
  public var label: String?
  public var subtitle: String?
  public var icon: String?
  public var unit: String?
  /// A raw proto number, so an unknown enum value can be rejected by name.
  public var trend: Int32?
  public var accentColor: String?
  public var backgroundColor: String?
  public var textColor: String?

  public init(
    template: TemplatePatch? = nil, label: String? = nil, subtitle: String? = nil,
    icon: String? = nil, unit: String? = nil, trend: Int32? = nil, accentColor: String? = nil,
    backgroundColor: String? = nil, textColor: String? = nil
  ) {
    self.template = template
    self.label = label
    self.subtitle = subtitle
    self.icon = icon
    self.unit = unit
    self.trend = trend
    self.accentColor = accentColor
    self.backgroundColor = backgroundColor
    self.textColor = textColor
  }
}

extension ContentPatch {
  /// A template and nothing else. A field added above belongs here too;
  /// `PatchShapeTests` counts the fields so that it is not forgotten.
  var setsOnlyTemplate: Bool {
    template != nil && label == nil && subtitle == nil && icon == nil && unit == nil
      && trend == nil && accentColor == nil && backgroundColor == nil && textColor == nil
  }
}

public enum TemplatePatch: Sendable, Equatable {
  case gauge(GaugePatch)
  case progress(ProgressPatch)
  case value(PlainValuePatch)
}

public struct GaugePatch: Sendable, Equatable {
  public var value: Double?
  public var minValue: Double?
  public var maxValue: Double?
  /// A raw proto number, so an unknown enum value can be rejected by name.
  public var style: Int32?
  public var gradient: [String]?
  public var marks: [MarkPatch]?
  public var currentValueLabel: String?
  public var minLabel: String?
  public var maxLabel: String?

  public init(
    value: Double? = nil, minValue: Double? = nil, maxValue: Double? = nil, style: Int32? = nil,
    gradient: [String]? = nil, marks: [MarkPatch]? = nil, currentValueLabel: String? = nil,
    minLabel: String? = nil, maxLabel: String? = nil
  ) {
    self.value = value
    self.minValue = minValue
    self.maxValue = maxValue
    self.style = style
    self.gradient = gradient
    self.marks = marks
    self.currentValueLabel = currentValueLabel
    self.minLabel = minLabel
    self.maxLabel = maxLabel
  }
}

extension GaugePatch {
  /// Nothing but (possibly) the value. A field added above belongs here too.
  var setsOnlyValue: Bool {
    minValue == nil && maxValue == nil && style == nil && gradient == nil && marks == nil
      && currentValueLabel == nil && minLabel == nil && maxLabel == nil
  }
}

public struct MarkPatch: Sendable, Equatable {
  public var value: Double?
  public var label: String?

  public init(value: Double? = nil, label: String? = nil) {
    self.value = value
    self.label = label
  }
}

public struct ProgressPatch: Sendable, Equatable {
  public var value: Double?

  public init(value: Double? = nil) {
    self.value = value
  }
}

public struct PlainValuePatch: Sendable, Equatable {
  public var value: Double?
  public var minValue: Double?
  public var maxValue: Double?

  public init(value: Double? = nil, minValue: Double? = nil, maxValue: Double? = nil) {
    self.value = value
    self.minValue = minValue
    self.maxValue = maxValue
  }
}

extension PlainValuePatch {
  /// Nothing but (possibly) the value. A field added above belongs here too.
  var setsOnlyValue: Bool { minValue == nil && maxValue == nil }
}

/// PutWidget: create or replace by id; content is replaced whole.
public struct WidgetPut: Sendable, Equatable {
  public var id: String?
  public var name: String?
  public var content: ContentPatch?
  public var staleAfterMs: Int64?

  public init(
    id: String? = nil, name: String? = nil, content: ContentPatch? = nil,
    staleAfterMs: Int64? = nil
  ) {
    self.id = id
    self.name = name
    self.content = content
    self.staleAfterMs = staleAfterMs
  }
}

/// UpdateWidget: merge-patch onto the stored widget (or onto nothing).
public struct WidgetUpdate: Sendable, Equatable {
  public var id: String?
  public var name: String?
  public var content: ContentPatch?
  /// Paths such as `content.subtitle` or `content.gauge.marks`.
  public var clearFields: [String]
  public var staleAfterMs: Int64?

  public init(
    id: String? = nil, name: String? = nil, content: ContentPatch? = nil,
    clearFields: [String] = [], staleAfterMs: Int64? = nil
  ) {
    self.id = id
    self.name = name
    self.content = content
    self.clearFields = clearFields
    self.staleAfterMs = staleAfterMs
  }
}
