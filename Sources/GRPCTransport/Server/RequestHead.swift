import GRPCCore

/// The request headers of one stream (or the trailers a client sends),
/// collected as nghttp2 reports them, capped in size, and held to RFC
/// 9113's rules for requests (section 8.3) as they arrive: the server
/// sessions leave those checks to it (`nghttp2_option_set_no_http_messaging`).
struct RequestHead {
  /// What `add` made of a field.
  enum FieldVerdict: Equatable {
    case kept
    /// A regular field with a name or value that is not valid: left out,
    /// the request goes on (nghttp2's leniency, kept).
    case dropped
    /// The header list grew over its cap.
    case tooLarge
    /// The request is malformed (RFC 9113 section 8.1.1): its stream is
    /// reset with PROTOCOL_ERROR.
    case malformed
  }

  /// The fields seen so far that the rules look back on.
  struct Seen: OptionSet {
    let rawValue: UInt8
    static let method = Seen(rawValue: 1 << 0)
    static let scheme = Seen(rawValue: 1 << 1)
    static let path = Seen(rawValue: 1 << 2)
    static let authority = Seen(rawValue: 1 << 3)
    static let host = Seen(rawValue: 1 << 4)
    /// A regular field: no pseudo-header may follow.
    static let regular = Seen(rawValue: 1 << 5)
    /// `:scheme` is http or https, which puts `:path` under RFC 9113's
    /// rules for those schemes.
    static let httpScheme = Seen(rawValue: 1 << 6)
  }

  var method = RequestMethod.other
  /// The method's name when it is none of `RequestMethod`'s (PUT, PATCH,
  /// DELETE reach the HTTP faces this way).
  private(set) var otherMethod = ""
  /// The `:path` as received. Bytes, in a buffer `reset` keeps: routing
  /// needs no String, and making one per request showed in profiles.
  private(set) var path: [UInt8] = []
  /// The content type, kept only when it is not gRPC's (for the 415 answer).
  private(set) var contentType = ""
  var timeout: [UInt8]?
  var encoding: String?
  var acceptEncoding: String?
  var metadata = Metadata()
  /// The first `-bin` value that was not base64, reported once the headers end.
  var badBinaryHeader: String?
  /// HTTP/2's header list size: name + value + 32 per field.
  private(set) var listBytes = 0
  private(set) var seen = Seen()
  /// The `content-length` the request declared, if any.
  private(set) var contentLength: Int64?
  /// The block is a client's trailers, where no pseudo-header may appear.
  var isTrailers = false

  /// Adds one field without a connection's memo.
  mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, limit: Int)
    -> FieldVerdict
  {
    var noMemo: CredentialMemo?
    return add(name: name, value: value, limit: limit, memo: &noMemo)
  }

  /// Adds one field; `memo` is the connection's, which turns the
  /// `authorization` a client repeats on every request into the same text.
  /// It is made with the first `authorization`: connections without one
  /// carry none.
  mutating func add(
    name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, limit: Int,
    memo: inout CredentialMemo?
  ) -> FieldVerdict {
    listBytes += name.count + value.count + 32
    guard listBytes <= limit else { return .tooLarge }
    // Every request carries the same few fields: they are recognised by
    // their bytes, which also vouches for their names, and only the values
    // kept become Strings.
    let known = KnownHeader(name)
    guard let known, known.isPseudo else {
      return addRegular(known, name: name, value: value, memo: &memo)
    }
    guard !isTrailers, !seen.contains(.regular) else { return .malformed }
    switch known {
    case .method:
      guard !seen.contains(.method) else { return .malformed }
      method = RequestMethod(value)
      // A method gauged knows is a token already.
      guard method != .other || HTTPFieldSyntax.isValidMethod(value) else { return .malformed }
      if method == .other { otherMethod = String(decoding: value, as: UTF8.self) }
      seen.insert(.method)
    case .path:
      guard !seen.contains(.path), HTTPFieldSyntax.isValidPath(value) else { return .malformed }
      path.removeAll(keepingCapacity: true)
      path.append(contentsOf: value)
      seen.insert(.path)
    case .scheme:
      guard !seen.contains(.scheme) else { return .malformed }
      if value.hasBytes(of: "http") || value.hasBytes(of: "https") {
        seen.insert(.httpScheme)
      } else {
        guard HTTPFieldSyntax.isValidScheme(value) else { return .malformed }
        if HTTPFieldSyntax.equalsIgnoringCase(value, "http")
          || HTTPFieldSyntax.equalsIgnoringCase(value, "https")
        {
          seen.insert(.httpScheme)
        }
      }
      seen.insert(.scheme)
    case .authority:
      guard !seen.contains(.authority), HTTPFieldSyntax.isValidAuthority(value) else {
        return .malformed
      }
      seen.insert(.authority)
    default:
      preconditionFailure("\(known) is not a pseudo-header")
    }
    return .kept
  }

  private mutating func addRegular(
    _ known: KnownHeader?, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer,
    memo: inout CredentialMemo?
  ) -> FieldVerdict {
    if known == nil {
      // A pseudo-header gauged does not know (`:protocol` included: the
      // server does not offer extended CONNECT), or a bad name.
      if name.first == UInt8(ascii: ":") { return .malformed }
      switch HTTPFieldSyntax.checkName(name) {
      case .valid: break
      case .uppercase: return .malformed
      case .invalid:
        seen.insert(.regular)
        return .dropped
      }
    }
    seen.insert(.regular)
    // The values every gRPC request carries, valid as they are.
    switch known {
    case .te where value.hasBytes(of: "trailers"):
      return .kept
    case .contentType where value.hasBytes(of: "application/grpc"):
      isGRPC = true
      contentType = ""
      return .kept
    case .authorization:
      // The value the connection's last request carried was valid then.
      if let text = memo?.repeated(value) {
        metadata.add(lowercaseKey: "authorization", .text(text))
        return .kept
      }
      guard HTTPFieldSyntax.isValidValue(value) else { return .dropped }
    default:
      guard HTTPFieldSyntax.isValidValue(value) else { return .dropped }
    }
    switch known {
    case .host:
      guard !seen.contains(.host), HTTPFieldSyntax.isValidAuthority(value) else {
        return .malformed
      }
      seen.insert(.host)
    case .contentLength:
      // Trailers cannot declare the length of what they end.
      guard !isTrailers, contentLength == nil,
        let declared = HTTPFieldSyntax.contentLength(value)
      else { return .malformed }
      contentLength = declared
    case .te:
      guard HTTPFieldSyntax.equalsIgnoringCase(value, "trailers") else { return .malformed }
    case .connectionSpecific:
      return .malformed
    case .contentType:
      isGRPC = GRPCContentType.isNativeGRPC(value)
      contentType = isGRPC ? "" : String(decoding: value, as: UTF8.self)
    case .timeout: timeout = Array(value)
    case .encoding: encoding = String(decoding: value, as: UTF8.self)
    case .acceptEncoding: acceptEncoding = String(decoding: value, as: UTF8.self)
    case .authorization:
      let connectionMemo = memo ?? CredentialMemo()
      memo = connectionMemo
      metadata.add(lowercaseKey: "authorization", .text(connectionMemo.text(of: value)))
    case .ignored: break
    case .method, .path, .scheme, .authority:
      preconditionFailure("pseudo-headers are added by add(name:value:limit:)")
    case nil: addMetadata(name: String(decoding: name, as: UTF8.self), value: value)
    }
    return .kept
  }

  /// Whether a complete request block has what RFC 9113 section 8.3.1
  /// requires: `:method`, `:scheme`, `:path` and an authority (`:authority`
  /// or `host`, as nghttp2 asks), or for CONNECT only `:authority`; and,
  /// for http and https, a `:path` that starts with "/" or is "*" for
  /// OPTIONS.
  var isCompleteRequest: Bool {
    if method == .connect {
      return seen.contains(.authority) && seen.isDisjoint(with: [.scheme, .path])
    }
    guard seen.isSuperset(of: [.method, .scheme, .path]),
      !seen.isDisjoint(with: [.authority, .host])
    else { return false }
    guard seen.contains(.httpScheme) else { return true }
    return path.first == UInt8(ascii: "/")
      || (method == .options && path.count == 1 && path[0] == UInt8(ascii: "*"))
  }

  var pathText: String { String(decoding: path, as: UTF8.self) }

  /// The method as sent.
  var methodText: String {
    switch method {
    case .get: "GET"
    case .head: "HEAD"
    case .post: "POST"
    case .options: "OPTIONS"
    case .connect: "CONNECT"
    case .other: otherMethod
    }
  }

  /// Empty again, keeping the path's buffer for the next block unless a
  /// long path made it large: pooled blocks outlive their requests. Field
  /// by field, and only what a request set: building a new head and
  /// destroying the old one cost more than the rest of the block's
  /// bookkeeping (`HeaderListTests` holds this to a fresh head).
  mutating func reset() {
    method = .other
    if !otherMethod.isEmpty { otherMethod = "" }
    if path.capacity > Self.keptPathCapacity {
      path = []
    } else {
      path.removeAll(keepingCapacity: true)
    }
    if !contentType.isEmpty { contentType = "" }
    if timeout != nil { timeout = nil }
    if encoding != nil { encoding = nil }
    if acceptEncoding != nil { acceptEncoding = nil }
    if !metadata.isEmpty { metadata = Metadata() }
    if badBinaryHeader != nil { badBinaryHeader = nil }
    listBytes = 0
    if !seen.isEmpty { seen = [] }
    if contentLength != nil { contentLength = nil }
    if isTrailers { isTrailers = false }
    isGRPC = false
  }

  static let keptPathCapacity = 256

  private mutating func addMetadata(name key: String, value: UnsafeRawBufferPointer) {
    guard !Metadata.isReserved(key) else { return }
    if key.hasSuffix("-bin") {
      if let bytes = Base64.decode(value) {
        metadata.add(key, .binary(bytes))
      } else if badBinaryHeader == nil {
        badBinaryHeader = key
      }
    } else {
      metadata.add(key, .text(String(decoding: value, as: UTF8.self)))
    }
  }

  /// The content type is `application/grpc` (in any case), optionally
  /// followed by `+proto` or `;params`. Told from the header's bytes as it
  /// arrives: lowercasing a String per request showed in profiles.
  private(set) var isGRPC = false

}

/// The request fields gRPC itself uses or HTTP/2 has rules for, told
/// apart without allocating.
private enum KnownHeader {
  case method, path, scheme, authority
  case host, contentLength, te
  /// Fields HTTP/2 forbids (RFC 9113 section 8.2.2).
  case connectionSpecific
  case contentType, timeout, encoding, acceptEncoding
  /// Metadata the transport reads from bytes, to spare making its name
  /// and (through the connection's memo) its value into text each time.
  case authorization
  /// Reserved fields that carry nothing a handler or the transport needs.
  case ignored

  /// nil for a field that may be custom metadata.
  init?(_ name: UnsafeRawBufferPointer) {
    let equals = name.hasBytes(of:)
    switch name.count {
    case 2 where equals("te"): self = .te
    case 4 where equals("host"): self = .host
    case 5 where equals(":path"): self = .path
    case 7 where equals(":method"): self = .method
    case 7 where equals(":scheme"): self = .scheme
    case 7 where equals("upgrade"): self = .connectionSpecific
    case 10 where equals(":authority"): self = .authority
    case 10 where equals("user-agent"): self = .ignored
    case 10 where equals("connection"): self = .connectionSpecific
    case 10 where equals("keep-alive"): self = .connectionSpecific
    case 14 where equals("content-length"): self = .contentLength
    case 16 where equals("proxy-connection"): self = .connectionSpecific
    case 17 where equals("transfer-encoding"): self = .connectionSpecific
    case 12 where equals("content-type"): self = .contentType
    case 13 where equals("authorization"): self = .authorization
    case 12 where equals("grpc-timeout"): self = .timeout
    case 13 where equals("grpc-encoding"): self = .encoding
    case 20 where equals("grpc-accept-encoding"): self = .acceptEncoding
    default: return nil
    }
  }

  var isPseudo: Bool {
    switch self {
    case .method, .path, .scheme, .authority: true
    default: false
    }
  }
}
