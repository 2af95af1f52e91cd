/// The little a high-rate reader needs from a `gauge.v1.WidgetEvent`: its
/// kind, its revision and, for an upsert, the template's value. Read
/// straight off the wire format, without unpacking the message or building
/// a `Widget`, so a load generator can keep up with a million events a
/// second on the cores it shares with the server.
public enum WidgetEventPeek: Sendable, Equatable {
  /// `value` is `content.<template>.value`, nil when the widget has none.
  case upsert(revision: UInt64, value: Double?)
  /// A `ValueDelta`: the value alone.
  case value(revision: UInt64, value: Double)
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
      guard let key = reader.nextKey() else { return nil }
      switch key {
      case WireReader.key(1, .varint):
        guard let value = reader.varintValue() else { return nil }
        revision = value
      case WireReader.key(2, .lengthDelimited):
        guard let widget = reader.lengthDelimited(), let value = templateValue(ofWidget: widget)
        else { return nil }
        peek = .upsert(revision: 0, value: value)
      case WireReader.key(3, .lengthDelimited):
        guard reader.skipValue(ofKey: key) else { return nil }
        peek = .removed(revision: 0)
      case WireReader.key(6, .lengthDelimited):
        guard let delta = reader.lengthDelimited(), let value = deltaValue(delta) else {
          return nil
        }
        peek = .value(revision: 0, value: value)
      case WireReader.key(4, .lengthDelimited):
        guard reader.skipValue(ofKey: key) else { return nil }
        peek = .synced(revision: 0)
      case WireReader.key(5, .lengthDelimited):
        guard reader.skipValue(ofKey: key) else { return nil }
        peek = .reset(revision: 0)
      default:
        guard reader.skipValue(ofKey: key) else { return nil }
      }
    }
    switch peek {
    case .upsert(_, let value): return .upsert(revision: revision, value: value)
    case .value(_, let value): return .value(revision: revision, value: value)
    case .removed: return .removed(revision: revision)
    case .synced: return .synced(revision: revision)
    case .reset: return .reset(revision: revision)
    case nil: return nil
    }
  }

  /// `content.<template>.value` of a `gauge.v1.Widget`, wrapped so that
  /// "no value" and "malformed" (nil) differ.
  private static func templateValue(ofWidget bytes: UnsafeRawBufferPointer) -> Double?? {
    lastValue(in: bytes, of: { $0 == WireReader.key(3, .lengthDelimited) }) { reader in
      reader.lengthDelimited().flatMap(templateValue(ofContent:))
    }
  }

  /// Gauge (1), Progress (2) and Value (3) all keep their value in field 1.
  private static func templateValue(ofContent bytes: UnsafeRawBufferPointer) -> Double?? {
    lastValue(
      in: bytes,
      of: {
        $0 == WireReader.key(1, .lengthDelimited) || $0 == WireReader.key(2, .lengthDelimited)
          || $0 == WireReader.key(3, .lengthDelimited)
      }
    ) { reader in
      reader.lengthDelimited().flatMap(templateValue(of:))
    }
  }

  private static func templateValue(of bytes: UnsafeRawBufferPointer) -> Double?? {
    lastValue(in: bytes, of: { $0 == WireReader.key(1, .fixed64) }) { reader in
      reader.fixed64().map { .some(Double(bitPattern: $0)) }
    }
  }

  /// A `ValueDelta`'s value; nil when the delta is malformed or has none.
  private static func deltaValue(_ bytes: UnsafeRawBufferPointer) -> Double? {
    let found = lastValue(in: bytes, of: { $0 == WireReader.key(2, .fixed64) }) { reader in
      reader.fixed64().map { .some(Double(bitPattern: $0)) }
    }
    return found ?? nil
  }

  /// What `read` makes of the last field whose key `wanted` accepts (the
  /// last one wins, as protobuf merges); the others are stepped over. Nil
  /// when the message or a wanted field is malformed. Always inlined: with
  /// its closures left as calls, the peek took twice as long.
  @inline(__always)
  private static func lastValue(
    in bytes: UnsafeRawBufferPointer, of wanted: (UInt64) -> Bool,
    read: (inout WireReader) -> Double??
  ) -> Double?? {
    var reader = WireReader(bytes)
    var value: Double?
    while !reader.isAtEnd {
      guard let key = reader.nextKey() else { return nil }
      guard wanted(key) else {
        guard reader.skipValue(ofKey: key) else { return nil }
        continue
      }
      guard let found = read(&reader) else { return nil }
      value = found
    }
    return .some(value)
  }
}
