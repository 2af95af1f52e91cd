/// A request's or response's header fields in arrival order, names in
/// lower case (HTTP/2 requires it; HTTP/1.1 names are folded on arrival),
/// so a lookup compares bytes and never case.
public struct HTTPFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  public private(set) var fields: [(name: String, value: String)] = []

  public init() {}

  public init(dictionaryLiteral elements: (String, String)...) {
    for (name, value) in elements { append(name, value) }
  }

  public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
  }

  public mutating func append(_ name: String, _ value: String) {
    // Most names arrive in lower case already (HTTP/2 requires it, and
    // most HTTP/1.1 clients send it): those are kept as they are.
    let hasUppercase = name.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    fields.append((hasUppercase ? name.lowercased() : name, value))
  }

  /// The first value of `name` (lower case).
  public subscript(name: String) -> String? {
    fields.first { $0.name == name }?.value
  }

  /// Every value of `name` (lower case), in order.
  public func values(_ name: String) -> [String] {
    fields.filter { $0.name == name }.map(\.value)
  }

  public var isEmpty: Bool { fields.isEmpty }

  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }
}
