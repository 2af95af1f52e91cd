import GaugeDomain

/// An UpdateWidgetRequest as `WidgetWire.decodeUpdateWidgetCall` reads it.
public enum UpdateWidgetCall: Sendable, Equatable {
  /// Sets an id and one template's value, nothing else.
  case templateValue(TemplateValueUpdate)
  case patch(WidgetUpdate)
}
