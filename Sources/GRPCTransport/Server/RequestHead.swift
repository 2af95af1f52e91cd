/// The request headers of one stream, collected as nghttp2 reports them and
/// capped in size as they arrive.
struct RequestHead {
  var method = RequestMethod.other
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

  /// false once the list is over `limit`: the stream must be refused.
  mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, limit: Int)
    -> Bool
  {
    listBytes += name.count + value.count + 32
    guard listBytes <= limit else { return false }
    // Every request carries the same few headers: they are recognised by
    // their bytes, and only the values kept become Strings.
    switch KnownHeader(name) {
    case .method: method = RequestMethod(value)
    case .path:
      path.removeAll(keepingCapacity: true)
      path.append(contentsOf: value)
    case .contentType:
      isGRPC = Self.isGRPCContentType(value)
      contentType = isGRPC ? "" : String(decoding: value, as: UTF8.self)
    case .timeout: timeout = Array(value)
    case .encoding: encoding = String(decoding: value, as: UTF8.self)
    case .acceptEncoding: acceptEncoding = String(decoding: value, as: UTF8.self)
    case .ignored: break
    case nil: addMetadata(name: String(decoding: name, as: UTF8.self), value: value)
    }
    return true
  }

  var pathText: String { String(decoding: path, as: UTF8.self) }

  var isRootPath: Bool { path.count == 1 && path[0] == UInt8(ascii: "/") }

  /// Empty again, keeping the path's buffer for the next block unless a
  /// long path made it large: pooled blocks outlive their requests. Field
  /// by field, and only what a request set: building a new head and
  /// destroying the old one cost more than the rest of the block's
  /// bookkeeping (`HeaderListTests` holds this to a fresh head).
  mutating func reset() {
    method = .other
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

  private static func isGRPCContentType(_ value: UnsafeRawBufferPointer) -> Bool {
    let expected: StaticString = "application/grpc"
    let length = expected.utf8CodeUnitCount
    guard value.count >= length else { return false }
    for offset in 0..<length {
      // ASCII letters differ from their capitals in bit 0x20 alone.
      let byte = value[offset]
      let wanted = expected.utf8Start[offset]
      guard byte == wanted || (wanted >= 0x61 && wanted <= 0x7A && byte | 0x20 == wanted) else {
        return false
      }
    }
    return value.count == length || value[length] == UInt8(ascii: "+")
      || value[length] == UInt8(ascii: ";")
  }
}

/// The request headers gRPC itself uses, told apart without allocating.
private enum KnownHeader {
  case method, path, contentType, timeout, encoding, acceptEncoding
  /// Reserved headers that carry nothing a handler or the transport needs.
  case ignored

  /// nil for a header that may be custom metadata.
  init?(_ name: UnsafeRawBufferPointer) {
    let equals = name.hasBytes(of:)
    switch name.count {
    case 2 where equals("te"): self = .ignored
    case 5 where equals(":path"): self = .path
    case 7 where equals(":method"): self = .method
    case 7 where equals(":scheme"): self = .ignored
    case 10 where equals(":authority"): self = .ignored
    case 10 where equals("user-agent"): self = .ignored
    case 14 where equals("content-length"): self = .ignored
    case 12 where equals("content-type"): self = .contentType
    case 12 where equals("grpc-timeout"): self = .timeout
    case 13 where equals("grpc-encoding"): self = .encoding
    case 20 where equals("grpc-accept-encoding"): self = .acceptEncoding
    default: return nil
    }
  }
}
