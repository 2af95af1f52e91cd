import GRPCTransport
import GaugeDomain
import GaugeWire

/// One change as every subscriber on one loop receives it: encoded at most
/// once, however many subscribers it reaches.
final class SharedEvent: SubscriptionEvent {
  let change: WidgetChange
  private var encoded: FramedMessage?

  init(_ change: WidgetChange) {
    self.change = change
  }

  init(widget: Widget) {
    self.change = .upserted(widget, created: false)
  }

  var widgetID: String { change.widgetID }

  var revision: UInt64 { change.revision }

  var isRemoval: Bool {
    if case .removed = change { return true }
    return false
  }

  /// The `WidgetEvent` message, framed for gRPC: encoded once for every
  /// subscriber of the loop that wants it.
  var framed: FramedMessage {
    if let encoded { return encoded }
    let bytes =
      switch change {
      case .upserted(let widget, _): WidgetWire.encodeWidgetEvent(.upsert(widget))
      case .removed(let id, let revision):
        WidgetWire.encodeWidgetEvent(.removed(id: id, revision: revision))
      }
    let framed = FramedMessage(bytes)
    encoded = framed
    return framed
  }
}
