/// A request's `:method`, as far as routing and RFC 9113's request rules
/// tell methods apart: read from the header's bytes, since a String per
/// request showed in profiles.
enum RequestMethod {
  case get, head, post, options, connect, other

  init(_ value: UnsafeRawBufferPointer) {
    let equals = value.hasBytes(of:)
    // Methods are case-sensitive (RFC 9110 section 9.1).
    if equals("POST") {
      self = .post
    } else if equals("GET") {
      self = .get
    } else if equals("HEAD") {
      self = .head
    } else if equals("OPTIONS") {
      self = .options
    } else if equals("CONNECT") {
      self = .connect
    } else {
      self = .other
    }
  }
}
