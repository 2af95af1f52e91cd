// Enum values by their schema names in lower snake case (`linear_capacity`,
// `up`): what the REST face reads and writes, and what gaugectl prints in
// upper case.

extension GaugeStyle {
  public var schemaName: String {
    switch self {
    case .automatic: "automatic"
    case .linearCapacity: "linear_capacity"
    case .accessoryLinear: "accessory_linear"
    case .accessoryLinearCapacity: "accessory_linear_capacity"
    case .accessoryCircular: "accessory_circular"
    case .accessoryCircularCapacity: "accessory_circular_capacity"
    case .circular: "circular"
    case .linear: "linear"
    }
  }

  /// The style named exactly `schemaName`, nil when there is none.
  public init?(schemaName: String) {
    guard let style = Self.allCases.first(where: { $0.schemaName == schemaName }) else {
      return nil
    }
    self = style
  }
}

extension Trend {
  /// `unspecified` is the absence of a trend; it is never sent.
  public var schemaName: String {
    switch self {
    case .unspecified: "unspecified"
    case .up: "up"
    case .down: "down"
    case .flat: "flat"
    }
  }

  /// The trend named exactly `schemaName`, nil when there is none.
  public init?(schemaName: String) {
    guard let trend = Self.allCases.first(where: { $0.schemaName == schemaName }) else {
      return nil
    }
    self = trend
  }
}
