import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire

/// One change as every subscriber on one loop receives it: encoded at most
/// once per face, however many subscribers it reaches.
final class SharedEvent: SubscriptionEvent {
  let change: WidgetChange
  private var encoded: FramedMessage?
  /// What other faces made of it, by encoding; empty (and unallocated)
  /// while only gRPC subscribers see it.
  private var faceEncodings: [(encoding: ObjectIdentifier, bytes: [UInt8])] = []

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

  /// The change as `Encoding` writes it, made once for every subscriber of
  /// the loop that uses that encoding.
  func encoded<Encoding: EventEncoding>(by _: Encoding.Type) -> [UInt8] {
    let key = ObjectIdentifier(Encoding.self)
    if let found = faceEncodings.first(where: { $0.encoding == key }) { return found.bytes }
    let bytes = Encoding.encode(change)
    faceEncodings.append((key, bytes))
    return bytes
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

/// How a face other than gRPC writes a change for its subscribers.
protocol EventEncoding {
  static func encode(_ change: WidgetChange) -> [UInt8]
}
