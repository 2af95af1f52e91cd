/// A value between fixed bounds, like SwiftUI's `Gauge`.
public struct Gauge: Sendable, Equatable {
  public var value: Double
  public var minValue: Double
  public var maxValue: Double
  public var style: GaugeStyle
  public var gradient: [String]
  public var marks: [Mark]
  public var currentValueLabel: String?
  public var minLabel: String?
  public var maxLabel: String?

  public init(
    value: Double, minValue: Double, maxValue: Double, style: GaugeStyle = .automatic,
    gradient: [String] = [], marks: [Mark] = [], currentValueLabel: String? = nil,
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

public struct Mark: Sendable, Equatable {
  public var value: Double
  public var label: String?

  public init(value: Double, label: String? = nil) {
    self.value = value
    self.label = label
  }
}

/// The raw values are the proto enum numbers.
public enum GaugeStyle: Int32, Sendable, Equatable, CaseIterable {
  case automatic = 0
  case linearCapacity = 1
  case accessoryLinear = 2
  case accessoryLinearCapacity = 3
  case accessoryCircular = 4
  case accessoryCircularCapacity = 5
  case circular = 6
  case linear = 7
}

/// A fraction of a known whole, within 0...1.
public struct Progress: Sendable, Equatable {
  public var value: Double

  public init(value: Double) {
    self.value = value
  }
}

/// A plain number; bounds, when given, are drawn as a range and never clamp.
public struct PlainValue: Sendable, Equatable {
  public var value: Double
  public var minValue: Double?
  public var maxValue: Double?

  public init(value: Double, minValue: Double? = nil, maxValue: Double? = nil) {
    self.value = value
    self.minValue = minValue
    self.maxValue = maxValue
  }
}

extension Template {
  /// Sets the template's main value, keeping everything else.
  mutating func replaceValue(with value: Double) {
    switch self {
    case .gauge(var gauge):
      gauge.value = value
      self = .gauge(gauge)
    case .progress(var progress):
      progress.value = value
      self = .progress(progress)
    case .value(var plain):
      plain.value = value
      self = .value(plain)
    }
  }
}
