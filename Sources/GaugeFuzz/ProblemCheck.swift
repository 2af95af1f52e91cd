import GaugeJSON

/// An error answer's body as RFC 9457 has it and every face promises:
/// `application/problem+json`, an object whose `status` is the answer's,
/// with a `title` and a `detail`, and `errors` (when present) naming the
/// field each one is about.
enum ProblemCheck {
  static func verify(status: Int, contentType: String?, body: [UInt8], what: String)
    throws(FuzzFinding)
  {
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

  private static func quoted(_ body: [UInt8]) -> String {
    HTTP1ResponseReader.quoted(body.prefix(300))
  }
}
