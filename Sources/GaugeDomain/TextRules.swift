extension Violations {
  /// Free text (names, labels, units): at most `maximum` characters, and no
  /// NUL. Limits count Unicode scalars (code points), the unit clients in
  /// every language can count the same way; bytes would punish non-Latin
  /// text. NUL is refused here, not only at the gRPC edge, because nothing
  /// downstream can keep it: protobuf-c's strings, in responses, events
  /// and the SQLite store's rows, end at the first NUL, so a stored "a\0b"
  /// would come back as "a".
  mutating func checkText(
    _ text: String?, maxLength maximum: Int, at field: @autoclosure () -> String
  ) {
    guard let text else { return }
    let length = text.unicodeScalars.count
    if length > maximum {
      add(field(), "must be at most \(maximum) characters, got \(length)")
    }
    if text.utf8.contains(0) {
      add(field(), "must not contain NUL (U+0000)")
    }
  }
}
