/// One line of a `--tokens-file`: `name scope[:prefix] sha256-hex`, fields
/// split by spaces or tabs. Blank lines and lines starting with `#` hold no
/// token.
public enum TokenLine {
  public enum Parsed: Equatable, Sendable {
    case token(AccessToken)
    case nothing
    /// The rule the line breaks.
    case invalid(FieldViolation)
  }

  /// The token a line describes, or the rule it breaks; `createdMs` stands
  /// in for a creation time the file does not carry.
  public static func parse(_ line: Substring, createdMs: Int64) -> Parsed {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    if fields.isEmpty || fields[0].hasPrefix("#") { return .nothing }
    guard fields.count == 3 else {
      return .invalid(
        FieldViolation(
          field: "line",
          description: "must be three fields, name scope[:prefix] sha256-hex, not \(fields.count)"))
    }
    if let violation = AccessToken.nameViolation(fields[0]) { return .invalid(violation) }
    let scopeField = fields[1]
    let scopeName: Substring
    var reach = WidgetReach.everything
    if let colon = scopeField.firstIndex(of: ":") {
      scopeName = scopeField[..<colon]
      let prefix = scopeField[scopeField.index(after: colon)...]
      guard !prefix.isEmpty else {
        return .invalid(
          FieldViolation(field: "prefix", description: "must not be empty after ':'"))
      }
      if let violation = AccessToken.prefixViolation(prefix) { return .invalid(violation) }
      reach = .prefix(String(prefix))
    } else {
      scopeName = scopeField
    }
    guard let scope = Scope(name: scopeName) else {
      return .invalid(
        FieldViolation(field: "scope", description: "must be read, write or admin"))
    }
    guard let digest = TokenDigest(hex: fields[2]) else {
      return .invalid(
        FieldViolation(field: "sha256", description: "must be 64 hex digits"))
    }
    return .token(
      AccessToken(
        name: String(fields[0]), scope: scope, reach: reach, digest: digest, createdMs: createdMs))
  }
}
