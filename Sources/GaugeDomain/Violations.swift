/// Collects every broken rule of one request, so a client fixes them all in
/// one round trip instead of discovering them one at a time.
struct Violations {
  private(set) var all: [FieldViolation] = []

  var isEmpty: Bool { all.isEmpty }

  mutating func add(_ field: String, _ description: String) {
    all.append(FieldViolation(field: field, description: description))
  }

  mutating func append(contentsOf other: Violations) {
    all.append(contentsOf: other.all)
  }

  /// Throws `.invalid` when anything was collected.
  func check() throws(WidgetError) {
    if !all.isEmpty { throw .invalid(all) }
  }
}
