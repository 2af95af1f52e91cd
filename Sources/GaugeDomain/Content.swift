/// What a widget shows: one template plus the fields every template shares.
/// Optional strings are absent when nil; an empty string is a present value.
///
/// Everything but the template's value sits in one shared box, copied on
/// write: a widget is copied on every change (into the store's write queue,
/// the change hub, each loop's events), and with the box such a copy costs
/// one reference count instead of one per string. The value lives outside
/// the box, so the producers' hot path, which changes nothing else, never
/// copies it.
public struct Content: Sendable, Equatable {
  private var box: Box
  /// The template's value; the box's copy of it is stale.
  var templateValue: Double

  public init(
    template: Template, label: String? = nil, subtitle: String? = nil, icon: String? = nil,
    unit: String? = nil, trend: Trend = .unspecified, accentColor: String? = nil,
    backgroundColor: String? = nil, textColor: String? = nil
  ) {
    box = Box(
      template: template,
      shared: Shared(
        label: label, subtitle: subtitle, icon: icon, unit: unit, trend: trend,
        accentColor: accentColor, backgroundColor: backgroundColor, textColor: textColor))
    templateValue = template.mainValue
  }

  /// The template's value, read without rebuilding the template.
  public var mainValue: Double { templateValue }

  public var template: Template {
    get {
      var template = box.template
      template.replaceValue(with: templateValue)
      return template
    }
    set {
      makeUnique()
      box.template = newValue
      templateValue = newValue.mainValue
    }
  }

  public var label: String? {
    get { box.shared.label }
    set { update { $0.label = newValue } }
  }

  public var subtitle: String? {
    get { box.shared.subtitle }
    set { update { $0.subtitle = newValue } }
  }

  public var icon: String? {
    get { box.shared.icon }
    set { update { $0.icon = newValue } }
  }

  public var unit: String? {
    get { box.shared.unit }
    set { update { $0.unit = newValue } }
  }

  public var trend: Trend {
    get { box.shared.trend }
    set { update { $0.trend = newValue } }
  }

  public var accentColor: String? {
    get { box.shared.accentColor }
    set { update { $0.accentColor = newValue } }
  }

  public var backgroundColor: String? {
    get { box.shared.backgroundColor }
    set { update { $0.backgroundColor = newValue } }
  }

  public var textColor: String? {
    get { box.shared.textColor }
    set { update { $0.textColor = newValue } }
  }

  public static func == (lhs: Content, rhs: Content) -> Bool {
    if lhs.box === rhs.box { return lhs.templateValue == rhs.templateValue }
    return lhs.template == rhs.template && lhs.box.shared == rhs.box.shared
  }

  private mutating func update(_ change: (inout Shared) -> Void) {
    makeUnique()
    change(&box.shared)
  }

  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&box) { box = Box(template: box.template, shared: box.shared) }
  }

  private struct Shared: Equatable {
    var label: String?
    var subtitle: String?
    var icon: String?
    var unit: String?
    var trend: Trend
    var accentColor: String?
    var backgroundColor: String?
    var textColor: String?
  }

  /// @unchecked Sendable: a box is written only after `makeUnique`, when
  /// this value holds the only reference, so a box that two threads can
  /// reach is never written again.
  private final class Box: @unchecked Sendable {
    var template: Template
    var shared: Shared

    init(template: Template, shared: Shared) {
      self.template = template
      self.shared = shared
    }
  }
}

public enum Template: Sendable, Equatable {
  case gauge(Gauge)
  case progress(Progress)
  case value(PlainValue)

  /// The main value, whichever the template.
  public var mainValue: Double {
    switch self {
    case .gauge(let gauge): gauge.value
    case .progress(let progress): progress.value
    case .value(let plain): plain.value
    }
  }

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
