extension Violations {
  /// Limits count Unicode scalars (code points), the unit clients in every
  /// language can count the same way; bytes would punish non-Latin text.
  mutating func limitLength(_ text: String?, to maximum: Int, at field: String) {
    guard let text else { return }
    let length = text.unicodeScalars.count
    if length > maximum {
      add(field, "must be at most \(maximum) characters, got \(length)")
    }
  }
}
