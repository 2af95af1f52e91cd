import GaugeJSON

/// An error answer's body as RFC 9457 has it and every face promises:
/// `application/problem+json`, an object whose `status` is the answer's,
/// with a `title` and a `detail`, and `errors` (when present) naming the
/// field each one is about. Connect's calls answer with Connect's error
/// JSON instead, checked against the protocol's own rules.
enum ProblemCheck {
  static func verify(status: Int, contentType: String?, body: [UInt8], what: String)
    throws(FuzzFinding)
  {
    // A Connect call's error is Connect's own JSON, as its clients read it.
    if contentType == "application/json" {
      return try verifyConnectError(status: status, body: body, what: what)
    }
    guard contentType == "application/problem+json" else {
      throw FuzzFinding("\(what): \(status) is \(contentType ?? "untyped"), not problem+json")
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(String(decoding: body, as: UTF8.self))
    } catch {
      throw FuzzFinding("\(what): the problem body \(Self.quoted(body)) is not JSON: \(error)")
    }
    guard case .number(let number)? = json["status"], number == Double(status),
      case .string? = json["title"], case .string(let detail)? = json["detail"], !detail.isEmpty
    else {
      throw FuzzFinding("\(what): the problem \(Self.quoted(body)) lacks status, title or detail")
    }
    guard let errors = json["errors"] else { return }
    guard case .array(let items) = errors, !items.isEmpty else {
      throw FuzzFinding("\(what): errors in \(Self.quoted(body)) is not a list of problems")
    }
    for item in items {
      guard case .string(let field)? = item["field"], !field.isEmpty,
        case .string(let detail)? = item["detail"], !detail.isEmpty
      else {
        throw FuzzFinding("\(what): an error in \(Self.quoted(body)) names no field or no detail")
      }
    }
  }

  /// `{"code": "not_found", "message": ..., "details": [{"type", "value"}]}`
  /// with the HTTP status Connect gives that code.
  private static func verifyConnectError(status: Int, body: [UInt8], what: String)
    throws(FuzzFinding)
  {
    let json: JSONValue
    do {
      json = try JSONParser.parse(String(decoding: body, as: UTF8.self))
    } catch {
      throw FuzzFinding("\(what): the Connect error \(Self.quoted(body)) is not JSON: \(error)")
    }
    guard case .string(let code)? = json["code"], let expected = connectStatuses[code] else {
      throw FuzzFinding("\(what): the Connect error \(Self.quoted(body)) names no known code")
    }
    guard expected == status else {
      throw FuzzFinding("\(what): Connect's \(code) is HTTP \(expected), not \(status)")
    }
    if let details = json["details"] {
      guard case .array(let items) = details,
        items.allSatisfy({
          if case .string? = $0["type"], case .string? = $0["value"] { return true }
          return false
        })
      else {
        throw FuzzFinding("\(what): details in \(Self.quoted(body)) are not type/value pairs")
      }
    }
  }

  /// The Connect protocol reference's table, for the codes an error can carry.
  private static let connectStatuses: [String: Int] = [
    "canceled": 499, "unknown": 500, "invalid_argument": 400, "deadline_exceeded": 504,
    "not_found": 404, "already_exists": 409, "permission_denied": 403,
    "resource_exhausted": 429, "failed_precondition": 400, "aborted": 409, "out_of_range": 400,
    "unimplemented": 501, "internal": 500, "unavailable": 503, "data_loss": 500,
    "unauthenticated": 401,
  ]

  private static func quoted(_ body: [UInt8]) -> String {
    HTTP1ResponseReader.quoted(body.prefix(300))
  }
}
