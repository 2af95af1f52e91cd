/// Just enough of media types for the REST face: a `Content-Type`'s type
/// without parameters, and whether an `Accept` lets JSON through.
enum RESTMediaType {
  /// `Application/JSON; charset=utf-8` → `application/json`.
  static func essence(of contentType: String) -> String {
    // What clients send: lower case, no parameters. Read on every request.
    let plain = !contentType.utf8.contains {
      $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t")
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
    }
    if plain { return contentType }
    let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return type.trimmingOptionalWhitespace().lowercased()
  }

  /// True when `accept` is absent or admits `application/json`. A range
  /// with `q=0` is a refusal.
  static func acceptsJSON(_ accept: String?) -> Bool {
    accepts(accept, "application/json")
  }

  /// True when `accept` is absent or admits `mediaType` (`type/subtype`,
  /// lower case), by name or by a wildcard range.
  static func accepts(_ accept: String?, _ mediaType: String) -> Bool {
    guard let accept else { return true }
    // curl's and most clients' Accept, answered without parsing.
    if accept == "*/*" || accept == mediaType { return true }
    guard !accept.trimmingOptionalWhitespace().isEmpty else { return true }
    let majorRange = (mediaType.split(separator: "/").first.map(String.init) ?? "") + "/*"
    return accept.split(separator: ",").contains { range in
      let parts = range.split(separator: ";")
      let type = (parts.first ?? "").trimmingOptionalWhitespace().lowercased()
      let refused = parts.dropFirst().contains { parameter in
        let pair = parameter.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingOptionalWhitespace().lowercased() == "q" else {
          return false
        }
        return Double(pair[1].trimmingOptionalWhitespace()) == 0
      }
      return !refused
        && [mediaType, majorRange, "*/*"].contains(type)
    }
  }
}
