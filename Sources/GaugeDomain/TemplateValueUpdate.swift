/// An UpdateWidget that sets nothing but its template's value: `gaugectl
/// set` and every producer that updates one gauge at a time. It is a
/// `WidgetUpdate` (`widgetUpdate`) in a form that costs little to carry:
/// a full patch is nine optional strings and a template patch, and
/// building, copying and inspecting one was about a fifth of such a call.
public struct TemplateValueUpdate: Sendable, Equatable {
  public var id: String
  /// The template the request names.
  public var kind: TemplateKind
  public var value: Double

  public init(id: String, kind: TemplateKind, value: Double) {
    self.id = id
    self.kind = kind
    self.value = value
  }

  /// The same request as a general patch.
  public var widgetUpdate: WidgetUpdate {
    let template: TemplatePatch =
      switch kind {
      case .gauge: .gauge(GaugePatch(value: value))
      case .progress: .progress(ProgressPatch(value: value))
      case .value: .value(PlainValuePatch(value: value))
      }
    return WidgetUpdate(id: id, content: ContentPatch(template: template))
  }
}
