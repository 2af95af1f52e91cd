import GaugeDomain

/// One of gauged's own gauges: its widget id under `SelfWidget.prefix`, how
/// it is named and drawn, and the gauge it makes of a reading.
enum SelfWidget: CaseIterable, Sendable {
  case connections
  case subscriptions
  case writesPerSecond
  case eventsPerSecond
  case unaryP99
  case storeQueueDepth

  /// Clients may read these ids and not write them (`ReservedPrefixStore`).
  static let prefix = "gauged-"

  var id: String {
    switch self {
    case .connections: Self.prefix + "connections"
    case .subscriptions: Self.prefix + "subscriptions"
    case .writesPerSecond: Self.prefix + "writes-per-second"
    case .eventsPerSecond: Self.prefix + "events-per-second"
    case .unaryP99: Self.prefix + "unary-p99"
    case .storeQueueDepth: Self.prefix + "store-queue-depth"
    }
  }

  private var name: String {
    switch self {
    case .connections: "Connections"
    case .subscriptions: "Subscriptions"
    case .writesPerSecond: "Writes per second"
    case .eventsPerSecond: "Events per second"
    case .unaryP99: "Unary p99 latency"
    case .storeQueueDepth: "Store queue depth"
    }
  }

  private var unit: String? {
    switch self {
    case .connections, .subscriptions: nil
    case .writesPerSecond, .eventsPerSecond: "/s"
    case .unaryP99: "ms"
    case .storeQueueDepth: "changes"
    }
  }

  private var icon: String {
    switch self {
    case .connections: "network"
    case .subscriptions: "antenna.radiowaves.left.and.right"
    case .writesPerSecond: "square.and.pencil"
    case .eventsPerSecond: "paperplane"
    case .unaryP99: "timer"
    case .storeQueueDepth: "tray.full"
    }
  }

  /// The maximum a quiet server is drawn against; a reading above it
  /// raises the maximum to the next 1, 2 or 5 times a power of ten, since
  /// a gauge refuses a value outside its bounds.
  private var usualMaximum: Double {
    switch self {
    case .connections: 100
    case .subscriptions: 100
    case .writesPerSecond: 1000
    case .eventsPerSecond: 10_000
    case .unaryP99: 100
    case .storeQueueDepth: 1000
    }
  }

  /// Where a reading starts to say something: a unary call slower than
  /// 10 ms is slow for an in-memory write, 100 ms is trouble; a store
  /// queue of thousands means the disk is behind.
  private var marks: [MarkPatch] {
    switch self {
    case .unaryP99: [MarkPatch(value: 10, label: "slow"), MarkPatch(value: 100, label: "trouble")]
    case .storeQueueDepth: [MarkPatch(value: 1000, label: "disk behind")]
    default: []
    }
  }

  func reading(_ readings: SelfGaugeReadings) -> Double? {
    switch self {
    case .connections: readings.connections
    case .subscriptions: readings.subscriptions
    case .writesPerSecond: readings.writesPerSecond
    case .eventsPerSecond: readings.eventsPerSecond
    case .unaryP99: readings.unaryP99Milliseconds
    case .storeQueueDepth: readings.storeQueueDepth
    }
  }

  /// The widget for `value`; nil stands for "nothing to measure" (no unary
  /// call in the last interval), drawn as 0 and said in words.
  func put(_ value: Double?) -> WidgetPut {
    let shown = Self.rounded(value ?? 0)
    let maxValue = max(usualMaximum, Self.niceCeiling(shown))
    return WidgetPut(
      id: id, name: name,
      content: ContentPatch(
        template: .gauge(
          GaugePatch(
            value: shown, minValue: 0, maxValue: maxValue,
            style: GaugeStyle.accessoryCircularCapacity.rawValue,
            marks: marks.filter { ($0.value ?? 0) <= maxValue }.nilIfEmpty,
            currentValueLabel: value == nil ? "no calls" : nil)),
        subtitle: "gauged", icon: icon, unit: unit))
  }

  /// Rates to one decimal, so a widget moves when its reading does and not
  /// with the clock's jitter between samples.
  static func rounded(_ value: Double) -> Double {
    guard value.isFinite, value > 0 else { return 0 }
    return (value * 10).rounded() / 10
  }

  /// The least of 1, 2 or 5 times a power of ten that is at least `value`.
  static func niceCeiling(_ value: Double) -> Double {
    guard value > 1 else { return 1 }
    var power = 1.0
    while true {
      for step in [1.0, 2, 5] where step * power >= value { return step * power }
      power *= 10
    }
  }
}

extension Array {
  fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
