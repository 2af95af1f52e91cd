import GaugeDomain

/// An UpdateWidgetRequest as `WidgetWire.decodeUpdateWidgetCall` reads it.
public enum UpdateWidgetCall: Sendable, Equatable {
  /// Sets an id and one template's value, nothing else.
  case templateValue(TemplateValueUpdate)
  /// Boxed: a patch is 280 bytes, and every move of an unboxed one would
  /// copy them, also when the call is the 32-byte value update.
  indirect case patch(WidgetUpdate)
}
