/// The request headers of one stream, collected as nghttp2 reports them and
/// capped in size as they arrive.
struct RequestHead {
  var method = ""
  var path = ""
  var contentType = ""
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
    let key = String(decoding: name, as: UTF8.self)
    switch key {
    case ":method": method = String(decoding: value, as: UTF8.self)
    case ":path": path = String(decoding: value, as: UTF8.self)
    case "content-type": contentType = String(decoding: value, as: UTF8.self)
    case "grpc-timeout": timeout = Array(value)
    case "grpc-encoding": encoding = String(decoding: value, as: UTF8.self)
    case "grpc-accept-encoding": acceptEncoding = String(decoding: value, as: UTF8.self)
    default:
      guard !Metadata.isReserved(key) else { break }
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
    return true
  }

  /// `application/grpc`, optionally `+proto` or `;params`.
  var isGRPC: Bool {
    let type = contentType.lowercased()
    guard type.hasPrefix("application/grpc") else { return false }
    let rest = type.dropFirst("application/grpc".count)
    return rest.isEmpty || rest.hasPrefix("+") || rest.hasPrefix(";")
  }
}
