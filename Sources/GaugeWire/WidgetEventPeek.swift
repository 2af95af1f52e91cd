/// The little a high-rate reader needs from a `gauge.v1.WidgetEvent`: its
/// kind, its revision and, for an upsert, the template's value. Read
/// straight off the wire format, without unpacking the message or building
/// a `Widget`, so a load generator can keep up with a million events a
/// second on the cores it shares with the server.
public enum WidgetEventPeek: Sendable, Equatable {
  /// `value` is `content.<template>.value`, nil when the widget has none.
  case upsert(revision: UInt64, value: Double?)
  case removed(revision: UInt64)
  case synced(revision: UInt64)
  case reset(revision: UInt64)
}

extension WidgetWire {
  /// Nil when the bytes are not a well-formed event with its oneof set.
  /// Fields are read wherever they appear; the last occurrence wins, as in
  /// a full decode.
  public static func peekWidgetEvent(_ bytes: UnsafeRawBufferPointer) -> WidgetEventPeek? {
    var reader = WireReader(bytes)
    var revision: UInt64 = 0
    var peek: WidgetEventPeek?
    while !reader.isAtEnd {
      guard let field = reader.nextField() else { return nil }
      switch (field.number, field.wireType) {
      case (1, .varint):
        revision = field.scalar
      case (2, .lengthDelimited):
        guard let value = templateValue(ofWidget: field.payload) else { return nil }
        peek = .upsert(revision: 0, value: value)
      case (3, .lengthDelimited):
        peek = .removed(revision: 0)
      case (4, .lengthDelimited):
        peek = .synced(revision: 0)
      case (5, .lengthDelimited):
        peek = .reset(revision: 0)
      default:
        continue
      }
    }
    switch peek {
    case .upsert(_, let value): return .upsert(revision: revision, value: value)
    case .removed: return .removed(revision: revision)
    case .synced: return .synced(revision: revision)
    case .reset: return .reset(revision: revision)
    case nil: return nil
    }
  }

  /// `content.<template>.value` of a `gauge.v1.Widget`, wrapped so that
  /// "no value" and "malformed" (nil) differ.
  private static func templateValue(ofWidget bytes: UnsafeRawBufferPointer) -> Double?? {
    var reader = WireReader(bytes)
    var value: Double?
    while !reader.isAtEnd {
      guard let field = reader.nextField() else { return nil }
      guard field.number == 3, field.wireType == .lengthDelimited else { continue }
      guard let found = templateValue(ofContent: field.payload) else { return nil }
      value = found
    }
    return .some(value)
  }

  /// Gauge (1), Progress (2) and Value (3) all keep their value in field 1.
  private static func templateValue(ofContent bytes: UnsafeRawBufferPointer) -> Double?? {
    var reader = WireReader(bytes)
    var value: Double?
    while !reader.isAtEnd {
      guard let field = reader.nextField() else { return nil }
      guard (1...3).contains(field.number), field.wireType == .lengthDelimited else { continue }
      var template = WireReader(field.payload)
      value = nil
      while !template.isAtEnd {
        guard let inner = template.nextField() else { return nil }
        if inner.number == 1, inner.wireType == .fixed64 {
          value = Double(bitPattern: inner.scalar)
        }
      }
    }
    return .some(value)
  }
}
