/// Custom headers and trailers of a call. Keys are lower-case; keys ending in
/// `-bin` carry raw bytes (base64 on the wire), all others ASCII text.
public struct Metadata: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  public enum Value: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
  }

  @usableFromInline var entries: [(key: String, value: Value)] = []

  @inlinable public init() {}

  public init(dictionaryLiteral elements: (String, Value)...) {
    for (key, value) in elements { add(key, value) }
  }

  public mutating func add(_ key: String, _ value: Value) {
    entries.append((key.lowercased(), value))
  }

  public mutating func add(_ key: String, _ text: String) {
    add(key, .text(text))
  }

  /// `add` for a key known to be lower case already: the transport's own
  /// names, which need no pass over their characters.
  package mutating func add(lowercaseKey key: String, _ value: Value) {
    entries.append((key, value))
  }

  /// The first value for `key`.
  public subscript(key: String) -> Value? {
    let key = key.lowercased()
    return entries.first { $0.key == key }?.value
  }

  /// The first text value of `key`, a lower-case name: read in place,
  /// without copying the entries it passes over.
  public func firstText(lowercaseKey key: String) -> String? {
    for index in entries.indices where entries[index].key == key {
      if case .text(let text) = entries[index].value { return text }
    }
    return nil
  }

  public func values(for key: String) -> [Value] {
    let key = key.lowercased()
    return entries.filter { $0.key == key }.map(\.value)
  }

  @inlinable public var isEmpty: Bool { entries.isEmpty }
  @inlinable public var count: Int { entries.count }

  public func makeIterator() -> IndexingIterator<[(key: String, value: Value)]> {
    entries.makeIterator()
  }

  public static func == (lhs: Metadata, rhs: Metadata) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  /// Headers that belong to HTTP/2 or to gRPC itself and never reach
  /// handlers as metadata.
  package static func isReserved(_ name: String) -> Bool {
    if name.hasPrefix(":") || name.hasPrefix("grpc-") { return true }
    switch name {
    case "content-type", "te", "user-agent", "content-length", "connection", "host",
      "transfer-encoding", "accept-encoding":
      return true
    default:
      return false
    }
  }
}
