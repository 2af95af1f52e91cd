extension StringProtocol where SubSequence == Substring {
  /// The text without the ASCII bytes `isTrimmed` accepts at either end.
  ///
  /// It scans UTF-8 rather than `Character`s: a space followed by a
  /// combining mark is one `Character`, which a `Character`-wise trim would
  /// keep whole. `isTrimmed` must accept ASCII bytes only, so that both ends
  /// fall on a scalar's first byte.
  func trimmingASCII(where isTrimmed: (UInt8) -> Bool) -> Substring {
    let text = self[...]
    guard let first = text.utf8.firstIndex(where: { !isTrimmed($0) }),
      let last = text.utf8.lastIndex(where: { !isTrimmed($0) })
    else { return text[text.endIndex...] }
    return text[first..<text.utf8.index(after: last)]
  }
}
