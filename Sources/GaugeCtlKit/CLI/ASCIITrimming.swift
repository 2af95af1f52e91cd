extension StringProtocol where SubSequence == Substring {
  /// The text without the ASCII bytes `isTrimmed` accepts at either end.
  ///
  /// It scans UTF-8 and returns a slice: `gaugectl publish` reads lines of
  /// any length, and trimming a 10 MB one `Character` by `Character`, into
  /// new strings, took 13 seconds. `isTrimmed` must accept ASCII bytes only,
  /// so that both ends fall on a scalar's first byte.
  func trimmingASCII(where isTrimmed: (UInt8) -> Bool) -> Substring {
    let text = self[...]
    guard let first = text.utf8.firstIndex(where: { !isTrimmed($0) }),
      let last = text.utf8.lastIndex(where: { !isTrimmed($0) })
    else { return text[text.endIndex...] }
    return text[first..<text.utf8.index(after: last)]
  }

  /// The fields between runs of `isSeparator` (ASCII bytes only), by UTF-8,
  /// for the same reason.
  func splitASCII(where isSeparator: (UInt8) -> Bool) -> [Substring] {
    self[...].utf8.split(whereSeparator: isSeparator).map { Substring($0) }
  }
}
