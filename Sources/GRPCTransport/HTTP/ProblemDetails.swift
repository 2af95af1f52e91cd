import GaugeJSON

/// An RFC 9457 problem: what every HTTP face and session answers an error
/// with, as `application/problem+json`.
public struct ProblemDetails: Error, Sendable, Equatable {
  /// One field that broke one rule (`content.value`, `2.4 is outside [0, 1]`).
  public struct FieldError: Sendable, Equatable {
    public var field: String
    public var detail: String

    public init(field: String, detail: String) {
      self.field = field
      self.detail = detail
    }
  }

  public var status: Int
  public var title: String
  public var detail: String
  public var type: String
  public var errors: [FieldError]
  /// Fields sent with the answer (`allow` on a 405, `accept` hints).
  public var headers: HTTPFields

  public init(
    status: Int, detail: String, title: String? = nil, type: String = "about:blank",
    errors: [FieldError] = [], headers: HTTPFields = HTTPFields()
  ) {
    self.status = status
    self.title = title ?? HTTPStatusText.reason(status)
    self.detail = detail
    self.type = type
    self.errors = errors
    self.headers = headers
  }

  /// 405, naming the methods that would be answered (also in `Allow`).
  public static func methodNotAllowed(_ method: String, allowed: [String]) -> ProblemDetails {
    let list = allowed.joined(separator: ", ")
    return ProblemDetails(
      status: 405, detail: "\(method) is not allowed here; allowed: \(list)",
      headers: ["allow": list])
  }

  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("type", .string(type)), ("title", .string(title)), ("status", .number(Double(status))),
      ("detail", .string(detail)),
    ]
    if !errors.isEmpty {
      members.append(
        (
          "errors",
          .array(
            errors.map { .object([("field", .string($0.field)), ("detail", .string($0.detail))]) })
        ))
    }
    return .object(members)
  }

  public var response: HTTPResponse {
    HTTPResponse(
      status: status, contentType: "application/problem+json",
      body: JSONWriter.compact(json), headers: headers)
  }
}

/// Reason phrases for the status codes gauged sends.
public enum HTTPStatusText {
  public static func reason(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 406: "Not Acceptable"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 411: "Length Required"
    case 412: "Precondition Failed"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 417: "Expectation Failed"
    case 422: "Unprocessable Content"
    case 428: "Precondition Required"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    case 507: "Insufficient Storage"
    default: "Status \(status)"
    }
  }
}
