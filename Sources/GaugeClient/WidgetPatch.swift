/// What `GaugeClient.update(id:patch:)` changes: each field is set (a
/// non-nil value, merged onto the stored widget), cleared (listed in
/// `clearing`), or left alone (neither).
public struct WidgetPatch: Sendable, Equatable {
  /// The new display name, or nil to keep it.
  public var name: String?
  /// Content fields to set; nil members keep what is stored. A template
  /// of another kind replaces the stored one.
  public var content: ContentPatch?
  /// Optional fields to remove. A field may not be both set and cleared.
  public var clearing: Set<Field>

  /// A patch that sets `name` and `content` and clears `clearing`.
  public init(name: String? = nil, content: ContentPatch? = nil, clearing: Set<Field> = []) {
    self.name = name
    self.content = content
    self.clearing = clearing
  }

  /// The optional fields a patch may clear, by their proto paths.
  public enum Field: String, Sendable, Hashable, CaseIterable {
    /// The widget's name.
    case name = "name"
    /// `content.label`.
    case label = "content.label"
    /// `content.subtitle`.
    case subtitle = "content.subtitle"
    /// `content.icon`.
    case icon = "content.icon"
    /// `content.unit`.
    case unit = "content.unit"
    /// `content.trend`.
    case trend = "content.trend"
    /// `content.accent_color`.
    case accentColor = "content.accent_color"
    /// `content.background_color`.
    case backgroundColor = "content.background_color"
    /// `content.text_color`.
    case textColor = "content.text_color"
    /// A gauge's `style`.
    case gaugeStyle = "content.gauge.style"
    /// A gauge's `gradient`.
    case gaugeGradient = "content.gauge.gradient"
    /// A gauge's `marks`.
    case gaugeMarks = "content.gauge.marks"
    /// A gauge's `current_value_label`.
    case gaugeCurrentValueLabel = "content.gauge.current_value_label"
    /// A gauge's `min_label`.
    case gaugeMinLabel = "content.gauge.min_label"
    /// A gauge's `max_label`.
    case gaugeMaxLabel = "content.gauge.max_label"
    /// A plain value's `min_value`.
    case valueMinValue = "content.value.min_value"
    /// A plain value's `max_value`.
    case valueMaxValue = "content.value.max_value"
  }

  /// The UpdateWidget request for widget `id`; cleared paths go in a
  /// stable order, so the server's `clear_fields[i]` violations are
  /// reproducible.
  func update(id: String) -> WidgetUpdate {
    WidgetUpdate(
      id: id, name: name, content: content,
      clearFields: Field.allCases.filter { clearing.contains($0) }.map(\.rawValue))
  }
}
