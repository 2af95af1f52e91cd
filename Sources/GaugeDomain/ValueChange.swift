/// A change that set only the template's value of an existing widget
/// (`setValue`): everything it touched, as plain values, so persistence can
/// queue it without holding the widget's shared storage.
public struct ValueChange: Sendable, Equatable {
  public var id: String
  public var value: Double
  public var revision: UInt64
  public var updatedAtMs: Int64

  public init(id: String, value: Double, revision: UInt64, updatedAtMs: Int64) {
    self.id = id
    self.value = value
    self.revision = revision
    self.updatedAtMs = updatedAtMs
  }

  /// Makes `widget`, in its state before, what the change left it.
  public func apply(to widget: inout Widget) {
    widget.content.templateValue = value
    widget.revision = revision
    widget.updatedAtMs = updatedAtMs
  }

  /// The widget as the change left it, given its state before.
  public func applied(to widget: Widget) -> Widget {
    var changed = widget
    apply(to: &changed)
    return changed
  }
}
