import GaugeDomain

/// The store's promise: whatever it holds passed validation whole, so each
/// widget put again into an empty store comes back unchanged. A widget that
/// does not (a gauge outside its bounds, a name too long) got in by a path
/// that skipped or half-applied a check.
enum StoreCheck {
  static func verify(_ store: InMemoryWidgetStore) throws(FuzzFinding) {
    let scratch = InMemoryWidgetStore()
    for widget in store.snapshot().widgets {
      if case .gauge(let gauge) = widget.content.template,
        !(gauge.minValue <= gauge.value && gauge.value <= gauge.maxValue)
      {
        throw FuzzFinding(
          "widget \(widget.id) holds \(gauge.value) outside [\(gauge.minValue), \(gauge.maxValue)]")
      }
      let again: Widget
      do {
        again = try scratch.put(
          WidgetPut(id: widget.id, name: widget.name, content: ContentPatch(widget.content))
        ).widget
      } catch {
        throw FuzzFinding("widget \(widget.id) in the store fails validation: \(error)")
      }
      if again.content != widget.content || again.name != widget.name {
        throw FuzzFinding("widget \(widget.id) does not survive a put unchanged")
      }
    }
  }
}
