import GaugeDomain

/// The domain names fields by proto path (`content.gauge.value`,
/// `clear_fields[2]`); the REST shape has the template's fields flat in
/// `content` and clears with `null`. This turns one into the other.
package enum RESTFieldPath {
  private static let templateNames: Set<Substring> = ["gauge", "progress", "value"]

  /// `content.gauge.marks[1].value` → `content.marks[1].value`;
  /// `clear_fields[i]` → the REST path that sent the `null`.
  package static func translate(_ violation: FieldViolation, clearPaths: [String] = [])
    -> FieldViolation
  {
    if let index = clearFieldIndex(violation.field), clearPaths.indices.contains(index) {
      // The domain's reason starts with the proto path it could not clear.
      var description = violation.description
      if let space = description.firstIndex(of: " ") {
        let named = String(description[..<space])
        description = restPath(named) + description[space...]
      }
      return FieldViolation(field: clearPaths[index], description: description)
    }
    if violation.field == "content", violation.description.hasPrefix("a template") {
      return FieldViolation(
        field: "content.template", description: "is required (gauge, progress or value)")
    }
    if violation.field == "id_prefix" {
      return FieldViolation(field: "prefix", description: violation.description)
    }
    return FieldViolation(field: restPath(violation.field), description: violation.description)
  }

  /// Drops the template's component of a `content.<template>.<field>` path.
  package static func restPath(_ protoPath: String) -> String {
    let parts = protoPath.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "content", templateNames.contains(parts[1]) else {
      return protoPath
    }
    return "content." + parts[2]
  }

  private static func clearFieldIndex(_ field: String) -> Int? {
    let prefix = "clear_fields["
    guard field.hasPrefix(prefix), field.hasSuffix("]") else { return nil }
    return Int(field.dropFirst(prefix.count).dropLast())
  }
}
