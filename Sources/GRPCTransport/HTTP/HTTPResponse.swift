/// A whole response: status, fields and body. `content-length` (or the
/// HTTP/2 equivalent) is added by the session; faces never set framing
/// fields.
public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: HTTPFields
  public var body: [UInt8]

  public init(status: Int, headers: HTTPFields = HTTPFields(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  public init(status: Int, contentType: String, body: String, headers: HTTPFields = HTTPFields()) {
    var fields = headers
    fields.append("content-type", contentType)
    self.init(status: status, headers: fields, body: Array(body.utf8))
  }
}
