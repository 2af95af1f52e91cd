import GaugeDomain
import GaugeJSON

/// Which members a widget's `content` may have in the REST shape: the
/// template's fields sit flat beside the shared ones.
package enum RESTContentFields {
  package static let shared: Set<String> = [
    "label", "subtitle", "icon", "unit", "trend", "accent_color", "background_color",
    "text_color",
  ]

  package static let gauge: Set<String> = [
    "value", "min_value", "max_value", "style", "gradient", "marks", "current_value_label",
    "min_label", "max_label",
  ]

  /// Every template field of every template (the gauge has them all).
  package static var anyTemplate: Set<String> { gauge }

  package static func of(_ kind: TemplateKind) -> Set<String> {
    switch kind {
    case .gauge: gauge
    case .progress: ["value"]
    case .value: ["value", "min_value", "max_value"]
    }
  }

  package static func name(of kind: TemplateKind) -> String {
    switch kind {
    case .gauge: "gauge"
    case .progress: "progress"
    case .value: "value"
    }
  }

  package static func kind(named name: String) -> TemplateKind? {
    [TemplateKind.gauge, .progress, .value].first { self.name(of: $0) == name }
  }

  /// True when a merge patch's `content` names template fields (to set or
  /// to clear) but not the template: they apply to the stored widget's.
  package static func needsStoredTemplate(_ content: JSONValue?) -> Bool {
    guard case .object(let members)? = content, content?["template"] == nil else { return false }
    return members.contains { anyTemplate.contains($0.key) }
  }
}
