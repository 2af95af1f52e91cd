/// The RPC protocols that reach a method's path as plain HTTP requests,
/// told apart as connect-go tells them: by the HTTP method and the content
/// type. Each has its own framing of the same messages.
enum WebRPCProtocol: Equatable {
  /// gRPC-Web: gRPC's framing with the trailers as the body's last frame;
  /// `text` for the base64 form that XHR clients read.
  case grpcWeb(text: Bool)
  /// Connect unary: the body is one bare message (or, for GET, the query).
  case connectUnary(WebRPCCodec)
  /// Connect streaming: enveloped messages, then an end-of-stream message.
  case connectStreaming(WebRPCCodec)

  /// The protocol of a `POST` by its content type; nil for none of these.
  /// Compared by bytes, ignoring ASCII case and any parameters: this runs
  /// on every web call, where splitting and lowercasing Strings showed.
  static func identify(contentType: String?) -> WebRPCProtocol? {
    guard var contentType else { return nil }
    return contentType.withUTF8 { bytes in
      for (type, kind) in knownTypes where matches(bytes, type) { return kind }
      return nil
    }
  }

  /// Longer names first where one is a prefix of another.
  private static let knownTypes: [([UInt8], WebRPCProtocol)] = [
    (Array("application/grpc-web-text+proto".utf8), WebRPCProtocol.grpcWeb(text: true)),
    (Array("application/grpc-web-text".utf8), WebRPCProtocol.grpcWeb(text: true)),
    (Array("application/grpc-web+proto".utf8), WebRPCProtocol.grpcWeb(text: false)),
    (Array("application/grpc-web".utf8), WebRPCProtocol.grpcWeb(text: false)),
    (Array("application/proto".utf8), WebRPCProtocol.connectUnary(.proto)),
    (Array("application/json".utf8), WebRPCProtocol.connectUnary(.json)),
    (Array("application/connect+proto".utf8), WebRPCProtocol.connectStreaming(.proto)),
    (Array("application/connect+json".utf8), WebRPCProtocol.connectStreaming(.json)),
  ]

  /// `bytes` is `type` in any case, then nothing, blanks, or parameters.
  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ type: [UInt8]) -> Bool {
    guard bytes.count >= type.count else { return false }
    for index in 0..<type.count {
      let byte = bytes[index]
      let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      guard folded == type[index] else { return false }
    }
    guard bytes.count > type.count else { return true }
    let next = bytes[type.count]
    return next == UInt8(ascii: ";") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
  }

  /// Whether a request to a method's path belongs to these protocols (or
  /// to a browser's CORS preflight for them) rather than to native gRPC.
  static func claims(method: String, contentType: String?) -> Bool {
    method == "GET" || method == "OPTIONS" || identify(contentType: contentType) != nil
  }

  /// The content types this face reads, for a 415's `accept-post`.
  static let acceptedContentTypes =
    "application/grpc-web+proto, application/grpc-web-text+proto, application/proto, "
    + "application/json, application/connect+proto, application/connect+json"
}

/// How a Connect message is written: binary protobuf or the proto3 JSON
/// mapping.
enum WebRPCCodec: String, Equatable {
  case proto
  case json
}
