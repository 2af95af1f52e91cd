import GRPCCore
import GaugeJSON
import HTTP2

/// The protocol one call speaks over HTTP/2. gRPC-Web and the Connect
/// protocol's streaming calls frame their messages exactly as gRPC does;
/// they differ in the request's fields and in how the response ends: not
/// with HTTP/2 trailers but with a last frame in the body, told apart by
/// its flags, that carries the status.
public enum CallProtocol: Sendable, Equatable {
  case grpc
  /// `application/grpc-web+proto`: the last frame (flag 0x80) holds the
  /// trailers as HTTP/1 header lines.
  case grpcWeb
  /// `application/connect+proto`, for streaming methods: the last envelope
  /// (flag 0x02) is the end-of-stream message, JSON with the error and the
  /// trailing metadata.
  case connectStreaming

  var contentType: String {
    switch self {
    case .grpc: "application/grpc"
    case .grpcWeb: "application/grpc-web+proto"
    case .connectStreaming: "application/connect+proto"
    }
  }

  /// The flag that marks the body's last frame; 0 for gRPC, whose body
  /// has none.
  var endFlag: UInt8 {
    switch self {
    case .grpc: 0
    case .grpcWeb: 0x80
    case .connectStreaming: 0x02
    }
  }

  /// Appends the request's fields that follow the content type: what each
  /// protocol's stock clients send, the deadline and compression under
  /// this protocol's names.
  func appendRequestFields(
    to fields: inout [HeaderField], timeout: Duration?, compression: CompressionAlgorithm
  ) {
    switch self {
    case .grpc: fields.append(HeaderField("te", "trailers"))
    case .grpcWeb: fields.append(HeaderField("x-grpc-web", "1"))
    case .connectStreaming: fields.append(HeaderField("connect-protocol-version", "1"))
    }
    switch (self, timeout) {
    case (_, nil):
      break
    case (.grpc, let timeout?), (.grpcWeb, let timeout?):
      fields.append(HeaderField("grpc-timeout", GRPCTimeout.encode(timeout)))
    case (.connectStreaming, let timeout?):
      let milliseconds = max(1, Int64((timeout / .milliseconds(1)).rounded(.up)))
      fields.append(HeaderField("connect-timeout-ms", String(milliseconds)))
    }
    if compression != .identity {
      let name = compression.rawValue
      if self == .connectStreaming {
        fields.append(HeaderField("connect-content-encoding", name))
        fields.append(HeaderField("connect-accept-encoding", name))
      } else {
        fields.append(HeaderField("grpc-encoding", name))
        fields.append(HeaderField("grpc-accept-encoding", name))
      }
    }
  }

  /// The response field naming how its messages are compressed.
  var messageEncodingField: String {
    self == .connectStreaming ? "connect-content-encoding" : "grpc-encoding"
  }

  /// Whether a response's content type is this protocol's, with
  /// parameters after `;` and, for gRPC, a `+codec` suffix allowed.
  func accepts(contentType: String) -> Bool {
    switch self {
    case .grpc:
      contentType == "application/grpc" || contentType.hasPrefix("application/grpc+")
        || contentType.hasPrefix("application/grpc;")
    case .grpcWeb:
      Self.isMediaType(contentType, "application/grpc-web")
        || Self.isMediaType(contentType, "application/grpc-web+proto")
    case .connectStreaming:
      Self.isMediaType(contentType, "application/connect+proto")
    }
  }

  private static func isMediaType(_ contentType: String, _ type: String) -> Bool {
    contentType == type || contentType.hasPrefix(type + ";")
  }

  /// The status and trailing metadata in the body's last frame (its five
  /// prefix bytes included), once the response has ended.
  func status(fromEndFrame frame: [UInt8], headerLimit: Int) -> (GRPCStatus, Metadata) {
    guard frame.count >= 5 else {
      return (
        GRPCStatus(.internal, "the response ended inside its last frame's prefix"), Metadata()
      )
    }
    let length = Int(frame[1]) << 24 | Int(frame[2]) << 16 | Int(frame[3]) << 8 | Int(frame[4])
    guard frame.count == 5 + length else {
      let problem =
        frame.count < 5 + length
        ? "the response ended inside its last frame"
        : "the response went on after its last frame"
      return (GRPCStatus(.internal, problem), Metadata())
    }
    guard frame[0] & 1 == 0 else {
      return (GRPCStatus(.internal, "the response's last frame is compressed"), Metadata())
    }
    let payload = frame[5...]
    switch self {
    case .grpc:
      return (GRPCStatus(.internal, "a gRPC response has no last frame"), Metadata())
    case .grpcWeb:
      return Self.trailerBlock(payload, limit: headerLimit)
    case .connectStreaming:
      return Self.endOfStream(payload)
    }
  }

  /// gRPC-Web's trailers: `name:value` lines ending in CRLF.
  private static func trailerBlock(_ payload: ArraySlice<UInt8>, limit: Int) -> (
    GRPCStatus, Metadata
  ) {
    var fields = ResponseFields()
    for line in payload.split(separator: UInt8(ascii: "\n")) {
      let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
      guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { continue }
      let name = Array(text[..<colon]).map { (65...90).contains($0) ? $0 + 32 : $0 }
      let value = Array(text[(colon + 1)...].drop { $0 == UInt8(ascii: " ") })
      let added = name.withUnsafeBytes { name in
        value.withUnsafeBytes { value in fields.add(name: name, value: value, limit: limit) }
      }
      guard added else {
        return (
          GRPCStatus(.resourceExhausted, "the trailer frame is over the limit of \(limit) bytes"),
          Metadata()
        )
      }
    }
    return (fields.status, fields.metadata)
  }

  /// Connect's end-of-stream message: `{"error": {"code", "message"},
  /// "metadata": {"key": ["value"]}}`, both optional. The error's
  /// `details` are not read back.
  private static func endOfStream(_ payload: ArraySlice<UInt8>) -> (GRPCStatus, Metadata) {
    let json: JSONValue
    do {
      json = try JSONParser.parse(String(decoding: payload, as: UTF8.self))
    } catch {
      return (GRPCStatus(.internal, "the end-of-stream message is not JSON: \(error)"), Metadata())
    }
    var metadata = Metadata()
    if case .object(let members)? = json["metadata"] {
      for (key, values) in members {
        guard case .array(let values) = values else { continue }
        for case .string(let value) in values {
          if key.hasSuffix("-bin") {
            if let bytes = Base64.decode(value.utf8) { metadata.add(key, .binary(bytes)) }
          } else {
            metadata.add(key, value)
          }
        }
      }
    }
    guard let error = json["error"] else { return (.ok, metadata) }
    guard case .string(let name)? = error["code"], let code = connectCode(name) else {
      return (GRPCStatus(.unknown, "the end-of-stream error has no known code"), metadata)
    }
    var message = ""
    if case .string(let text)? = error["message"] { message = text }
    return (GRPCStatus(code, message), metadata)
  }

  /// Connect's code names: gRPC's canonical names in lower case, but
  /// `canceled`.
  private static func connectCode(_ name: String) -> GRPCStatus.Code? {
    if name == "canceled" { return .cancelled }
    return GRPCStatus.Code.allCases.first { $0.canonicalName.lowercased() == name }
  }
}
