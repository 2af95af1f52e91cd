import GRPCTransport
import GaugeDomain
import GaugeJSON

/// Reading what a REST request sends: its body under an accepted media
/// type, and its `If-Match`.
extension HTTPRequest {
  /// The body's media type when it is one of `accepted`; 415 otherwise.
  func bodyMediaType(_ accepted: [String]) throws(RESTProblem) -> String {
    guard let contentType = headers["content-type"] else {
      throw RESTProblem(415, "Content-Type is missing; send \(accepted.joined(separator: " or "))")
    }
    let type = RESTMediaType.essence(of: contentType)
    guard accepted.contains(type) else {
      throw RESTProblem(
        415, "\(type) is not accepted here; send \(accepted.joined(separator: " or "))")
    }
    return type
  }

  /// The body as text; 400 when it is not UTF-8.
  func bodyText() throws(RESTProblem) -> String {
    guard let text = String(validating: body, as: UTF8.self) else {
      throw RESTProblem(400, "the body is not UTF-8")
    }
    return text
  }

  /// The body as one JSON document; 400 says where it stops being JSON.
  func bodyJSON() throws(RESTProblem) -> JSONValue {
    let text = try bodyText()
    do {
      return try JSONParser.parse(text)
    } catch {
      throw RESTProblem(
        400,
        "the body is not valid JSON: line \(error.line), column \(error.column): \(error.reason)")
    }
  }

  /// `If-Match` as a store precondition: `*` (any current widget) or one
  /// strong entity tag `"7"`. A weak or unknown tag can never match a
  /// revision, so it fails as a revision no widget has (revisions start
  /// at 1). A list of tags has no atomic store check: 400.
  var writePrecondition: WritePrecondition {
    get throws(RESTProblem) {
      guard let value = headers["if-match"]?.trimmingOptionalWhitespace() else { return .none }
      if value == "*" { return .exists }
      if value.contains(",") {
        throw RESTProblem(400, "If-Match: give one entity tag or *, not a list")
      }
      guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\""),
        let revision = UInt64(value.dropFirst().dropLast())
      else { return .revision(0) }
      return .revision(revision)
    }
  }
}
