import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire

/// One change as every subscriber on one loop receives it: encoded at most
/// once per face, however many subscribers it reaches.
final class SharedEvent: SubscriptionEvent {
  let change: WidgetChange
  /// What the faces made of it so far, in one word: a snapshot event
  /// lives as long as its subscription's start, ten thousand at a time, and
  /// a second field put it in a larger allocation.
  private var encodings = Encodings.none

  private enum Encodings {
    case none
    /// The common case: only gRPC subscribers.
    case grpc(FramedMessage)
    case several(SeveralEncodings)
  }

  /// gRPC's framing and the other faces' encodings, by encoding, whole
  /// and (for a value-only change) as a value delta.
  private final class SeveralEncodings {
    var framed: FramedMessage?
    var framedDelta: FramedMessage?
    var others: [(encoding: ObjectIdentifier, delta: Bool, bytes: [UInt8])] = []

    init(framed: FramedMessage?) {
      self.framed = framed
    }
  }

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

  /// The change set nothing but the widget's value: it can go as a delta.
  var isValueOnly: Bool {
    if case .valueSet = change { return true }
    return false
  }

  /// The change as `Encoding` writes it, made once for every subscriber of
  /// the loop that uses that encoding; `delta`: as a value delta, for a
  /// value-only change.
  func encoded<Encoding: EventEncoding>(by _: Encoding.Type, delta: Bool = false) -> [UInt8] {
    let key = ObjectIdentifier(Encoding.self)
    let several = severalEncodings()
    if let found = several.others.first(where: { $0.encoding == key && $0.delta == delta }) {
      return found.bytes
    }
    let bytes: [UInt8]
    if delta, case .valueSet(let widget) = change {
      bytes = Encoding.encodeValue(of: widget)
    } else {
      bytes = Encoding.encode(change)
    }
    several.others.append((key, delta, bytes))
    return bytes
  }

  private func severalEncodings() -> SeveralEncodings {
    switch encodings {
    case .none:
      let several = SeveralEncodings(framed: nil)
      encodings = .several(several)
      return several
    case .grpc(let framed):
      let several = SeveralEncodings(framed: framed)
      encodings = .several(several)
      return several
    case .several(let existing):
      return existing
    }
  }

  /// A value-only change as a `WidgetEvent` `value`, framed for gRPC, made
  /// once for every delta subscriber of the loop; whole for other changes.
  var framedDelta: FramedMessage {
    guard case .valueSet(let widget) = change else { return framed }
    let several = severalEncodings()
    if let framed = several.framedDelta { return framed }
    let framed = FramedMessage(
      WidgetWire.encodeWidgetEvent(
        .value(
          id: widget.id, value: widget.content.mainValue, updatedAtMs: widget.updatedAtMs,
          revision: widget.revision)))
    several.framedDelta = framed
    return framed
  }

  /// The `WidgetEvent` message, framed for gRPC: encoded once for every
  /// subscriber of the loop that wants it.
  var framed: FramedMessage {
    switch encodings {
    case .grpc(let framed):
      return framed
    case .several(let several):
      if let framed = several.framed { return framed }
      let framed = makeFramed()
      several.framed = framed
      return framed
    case .none:
      let framed = makeFramed()
      encodings = .grpc(framed)
      return framed
    }
  }

  private func makeFramed() -> FramedMessage {
    let bytes =
      switch change {
      case .upserted(let widget, _), .valueSet(let widget):
        WidgetWire.encodeWidgetEvent(.upsert(widget))
      case .removed(let id, let revision):
        WidgetWire.encodeWidgetEvent(.removed(id: id, revision: revision))
      }
    return FramedMessage(bytes)
  }
}

/// How a face other than gRPC writes a change for its subscribers.
protocol EventEncoding {
  static func encode(_ change: WidgetChange) -> [UInt8]
  /// A value-only change's widget as a value delta.
  static func encodeValue(of widget: Widget) -> [UInt8]
}
