/// A change that set only the template's value of an existing widget
/// (`setValue`): everything it touched, as plain values, so persistence can
/// queue it without holding the widget's shared storage.
public struct ValueChange: Sendable, Equatable {
  public var id: String
  public var value: Double
  public var revision: UInt64
  public var updatedAtMs: Int64
  /// Where the widget sits in the table that made the change (-1: not
  /// known). A widget keeps its slot while it exists, so persistence can
  /// track widgets in arrays by slot instead of hashing every id; a slot
  /// passes to another widget only after a removal, so it is a hint to be
  /// checked against `id`, never an identity.
  public var tableSlot: Int32

  public init(
    id: String, value: Double, revision: UInt64, updatedAtMs: Int64, tableSlot: Int32 = -1
  ) {
    self.id = id
    self.value = value
    self.revision = revision
    self.updatedAtMs = updatedAtMs
    self.tableSlot = tableSlot
  }

  /// The slot is a hint about where the widget was, not part of the change.
  public static func == (left: ValueChange, right: ValueChange) -> Bool {
    left.id == right.id && left.value.bitPattern == right.value.bitPattern
      && left.revision == right.revision && left.updatedAtMs == right.updatedAtMs
  }

  /// Makes `widget`, in its state before, what the change left it. A write
  /// is what a stale widget waits for, so it is stale no more.
  public func apply(to widget: inout Widget) {
    widget.content.templateValue = value
    widget.stale = false
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
