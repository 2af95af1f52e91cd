import Glibc

/// A request's or response's header fields in arrival order, names in
/// lower case (HTTP/2 requires it; HTTP/1.1 names are folded on arrival),
/// so a lookup compares bytes and never case.
///
/// Names and values sit one after another in one byte buffer: a session
/// builds a request's fields from the bytes it parsed without making a
/// String per name and value, and a String is made only for a value a
/// face asks for.
public struct HTTPFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  /// Each field's name, then its value.
  private var bytes: [UInt8] = []
  private var entries: [Entry] = []

  /// Where one field sits in `bytes`: the name from `start`, the value
  /// right after it.
  private struct Entry: Sendable, Equatable {
    var start: Int
    var nameCount: Int
    var valueCount: Int

    var nameRange: Range<Int> { start..<start + nameCount }
    var valueRange: Range<Int> { start + nameCount..<start + nameCount + valueCount }
  }

  public init() {}

  /// Room for `fields` fields of `bytes` name and value bytes in all, so
  /// that a session building a request's fields allocates once for each.
  package init(reservingFields fields: Int, bytes: Int) {
    entries.reserveCapacity(fields)
    self.bytes.reserveCapacity(bytes)
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    for (name, value) in elements { append(name, value) }
  }

  public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { left, right in
        lhs.bytes[left.nameRange].elementsEqual(rhs.bytes[right.nameRange])
          && lhs.bytes[left.valueRange].elementsEqual(rhs.bytes[right.valueRange])
      }
  }

  public mutating func append(_ name: String, _ value: String) {
    beginField()
    var name = name
    var value = value
    name.withUTF8 { appendToName($0) }
    value.withUTF8 { appendToValue($0) }
  }

  /// Appends a field whose value `write` appends to the bytes it is
  /// given (a number laid out in place, for values made per response).
  public mutating func append(_ name: String, valueWrittenBy write: (inout [UInt8]) -> Void) {
    beginField()
    appendToName(name.utf8)
    let before = bytes.count
    write(&bytes)
    entries[entries.count - 1].valueCount = bytes.count - before
  }

  // MARK: Building from parsed bytes

  /// Starts a field with an empty name and value; the pieces follow.
  package mutating func beginField() {
    entries.append(Entry(start: bytes.count, nameCount: 0, valueCount: 0))
  }

  /// Adds `piece`, folded to lower case, to the last field's name (a
  /// parser may hand a name over in pieces). Only before its value.
  package mutating func appendToName(_ piece: some Collection<UInt8>) {
    let before = bytes.count
    bytes.append(contentsOf: piece)
    bytes.withUnsafeMutableBufferPointer { all in
      for index in before..<all.count where all[index] &- UInt8(ascii: "A") < 26 {
        all[index] |= 0x20
      }
    }
    entries[entries.count - 1].nameCount += bytes.count - before
  }

  /// Adds `piece` to the last field's value.
  package mutating func appendToValue(_ piece: some Collection<UInt8>) {
    bytes.append(contentsOf: piece)
    entries[entries.count - 1].valueCount += piece.count
  }

  /// Adds `piece`, folded to lower case, to the last field's name.
  package mutating func appendToName(_ piece: UnsafeRawBufferPointer) {
    appendToName(piece.assumingMemoryBound(to: UInt8.self))
  }

  /// Adds `piece` to the last field's value.
  package mutating func appendToValue(_ piece: UnsafeRawBufferPointer) {
    appendToValue(piece.assumingMemoryBound(to: UInt8.self))
  }

  // MARK: Reading

  /// The first value of `name` (lower case).
  public subscript(name: String) -> String? {
    index(of: name).map { value(at: $0) }
  }

  /// Every value of `name` (lower case), in order.
  public func values(_ name: String) -> [String] {
    var name = name
    return name.withUTF8 { wanted in
      entries.indices.filter { hasName(wanted, at: $0) }.map { value(at: $0) }
    }
  }

  public var isEmpty: Bool { entries.isEmpty }
  public var count: Int { entries.count }
  /// The bytes of every name and value together.
  package var byteCount: Int { bytes.count }

  /// The fields as Strings, in order.
  public var fields: [(name: String, value: String)] { Array(self) }

  /// Calls `body` with each field's name and value bytes, in order: for
  /// serializers, which copy them out without making Strings.
  package func forEachField(
    _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void
  ) {
    bytes.withUnsafeBufferPointer { all in
      for entry in entries {
        body(
          UnsafeBufferPointer(rebasing: all[entry.nameRange]),
          UnsafeBufferPointer(rebasing: all[entry.valueRange]))
      }
    }
  }

  public func makeIterator() -> Iterator {
    Iterator(fields: self)
  }

  /// The fields as (name, value) Strings, in order.
  public struct Iterator: IteratorProtocol {
    private let fields: HTTPFields
    private var position = 0

    init(fields: HTTPFields) {
      self.fields = fields
    }

    public mutating func next() -> (name: String, value: String)? {
      guard position < fields.entries.count else { return nil }
      defer { position += 1 }
      return (fields.name(at: position), fields.value(at: position))
    }
  }

  /// Calls `body` with the bytes of the first value of `name` (lower
  /// case), or nil when there is none: for checks that need no String.
  package func withValue<Result>(
    of name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
  ) -> Result {
    guard let index = index(of: name) else { return body(nil) }
    return bytes.withUnsafeBufferPointer { all in
      body(UnsafeBufferPointer(rebasing: all[entries[index].valueRange]))
    }
  }

  /// Whether `name` (field bytes) is `expected`, a lower-case literal.
  package static func name(_ name: UnsafeBufferPointer<UInt8>, is expected: StaticString) -> Bool {
    expected.withUTF8Buffer { expected in
      name.count == expected.count && same(name, expected, count: expected.count)
    }
  }

  /// Whether `bytes` begin with `prefix`.
  package static func text(_ bytes: UnsafeBufferPointer<UInt8>, startsWith prefix: StaticString)
    -> Bool
  {
    prefix.withUTF8Buffer { prefix in
      bytes.count >= prefix.count && same(bytes, prefix, count: prefix.count)
    }
  }

  private func index(of name: String) -> Int? {
    var name = name
    return name.withUTF8 { wanted in entries.indices.first { hasName(wanted, at: $0) } }
  }

  private func hasName(_ wanted: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    let entry = entries[index]
    guard entry.nameCount == wanted.count else { return false }
    return bytes.withUnsafeBufferPointer { all in
      Self.same(UnsafeBufferPointer(rebasing: all[entry.nameRange]), wanted, count: wanted.count)
    }
  }

  /// Whether the first `count` bytes of `left` and `right` are equal.
  private static func same(
    _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, count: Int
  ) -> Bool {
    guard count > 0 else { return true }
    return memcmp(left.baseAddress!, right.baseAddress!, count) == 0
  }

  private func name(at index: Int) -> String {
    String(decoding: bytes[entries[index].nameRange], as: UTF8.self)
  }

  private func value(at index: Int) -> String {
    String(decoding: bytes[entries[index].valueRange], as: UTF8.self)
  }
}
