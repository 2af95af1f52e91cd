/// A request's `:method`, as far as routing tells methods apart: read from
/// the header's bytes, since a String per request showed in profiles.
enum RequestMethod {
  case get, head, post, other

  init(_ value: UnsafeRawBufferPointer) {
    let equals = value.hasBytes(of:)
    // Methods are case-sensitive (RFC 9110 section 9.1).
    if equals("POST") {
      self = .post
    } else if equals("GET") {
      self = .get
    } else if equals("HEAD") {
      self = .head
    } else {
      self = .other
    }
  }
}
