/// What a widget shows: one template plus the fields every template shares.
/// Optional strings are absent when nil; an empty string is a present value.
public struct Content: Sendable, Equatable {
  public var template: Template
  public var label: String?
  public var subtitle: String?
  public var icon: String?
  public var unit: String?
  public var trend: Trend
  public var accentColor: String?
  public var backgroundColor: String?
  public var textColor: String?

  public init(
    template: Template, label: String? = nil, subtitle: String? = nil, icon: String? = nil,
    unit: String? = nil, trend: Trend = .unspecified, accentColor: String? = nil,
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

public enum Template: Sendable, Equatable {
  case gauge(Gauge)
  case progress(Progress)
  case value(PlainValue)

  /// The name used in field paths: `content.<name>.value`.
  public var name: String {
    switch self {
    case .gauge: "gauge"
    case .progress: "progress"
    case .value: "value"
    }
  }
}

/// The raw values are the proto enum numbers.
public enum Trend: Int32, Sendable, Equatable, CaseIterable {
  case unspecified = 0
  case up = 1
  case down = 2
  case flat = 3
}
