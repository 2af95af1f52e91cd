import GaugeDomain
import GaugeWire

/// A subscriber that is still live at the end, has been told it is in sync
/// and has read everything sent, must hold exactly what the store holds for
/// its filter: coalescing may skip intermediate values, never the latest
/// one, and never a removal.
enum SubscriptionCheck {
  static func verify(_ call: RecordedCall, store: InMemoryWidgetStore) throws(FuzzFinding) {
    guard call.path == ResponseCheck.service + "Subscribe", !call.isFinished,
      let request = call.firstRequest,
      let query = try? request.withUnsafeBytes({ bytes throws(WireError) in
        try WidgetWire.decodeSubscribeRequest(bytes)
      })
    else { return }
    var view: [String: Widget] = [:]
    var synced = false
    for message in call.messages {
      guard
        let event = try? message.withUnsafeBytes({ bytes throws(WireError) in
          try WidgetWire.decodeWidgetEvent(bytes)
        })
      else { return }  // ResponseCheck reports it.
      switch event {
      case .upsert(let widget): view[widget.id] = widget
      case .removed(let id, _): view[id] = nil
      case .value(let id, let value, let updatedAtMs, let revision):
        guard var widget = view[id] else {
          throw FuzzFinding(
            "a value delta for \(id) reached a subscriber that never had the widget whole")
        }
        ValueChange(id: id, value: value, revision: revision, updatedAtMs: updatedAtMs)
          .apply(to: &widget)
        view[id] = widget
      case .reset:
        view.removeAll()
        synced = false
      case .synced: synced = true
      }
    }
    guard synced else { return }
    let filter = WidgetFilter(ids: query.ids, idPrefix: query.idPrefix)
    let expected = store.snapshot().widgets.filter { filter.matches($0.id) }
    let seen = view.values.sorted { $0.id < $1.id }
    guard seen == expected.sorted(by: { $0.id < $1.id }) else {
      let describe = { (widgets: [Widget]) in widgets.map { "\($0.id)@\($0.revision)" } }
      throw FuzzFinding(
        "a live subscriber (ids \(query.ids), prefix \"\(query.idPrefix)\") holds "
          + "\(describe(seen)) where the store holds \(describe(expected))")
    }
  }
}
