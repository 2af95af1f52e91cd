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
  static func identify(contentType: String?) -> WebRPCProtocol? {
    guard let contentType else { return nil }
    switch mediaType(contentType) {
    case "application/grpc-web", "application/grpc-web+proto": return .grpcWeb(text: false)
    case "application/grpc-web-text", "application/grpc-web-text+proto": return .grpcWeb(text: true)
    case "application/proto": return .connectUnary(.proto)
    case "application/json": return .connectUnary(.json)
    case "application/connect+proto": return .connectStreaming(.proto)
    case "application/connect+json": return .connectStreaming(.json)
    default: return nil
    }
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

  /// `Application/JSON; charset=utf-8` → `application/json`.
  static func mediaType(_ contentType: String) -> String {
    let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return String(type).trimmingOptionalWhitespace().lowercased()
  }
}

/// How a Connect message is written: binary protobuf or the proto3 JSON
/// mapping.
enum WebRPCCodec: String, Equatable {
  case proto
  case json
}
