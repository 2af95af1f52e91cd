extension StringProtocol {
  /// Without the spaces and tabs around it: HTTP's optional whitespace
  /// (RFC 9110 section 5.6.3) around a field value or list element.
  public func trimmingOptionalWhitespace() -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) })
    else { return "" }
    return String(self[first...last])
  }
}
