import GRPCCore
import GaugeJSON

/// How one web call's response is written: the head's fields, each message,
/// and the end that carries the status. The handler's messages arrive as
/// protobuf; JSON is made here through the method's codec.
struct WebResponseFraming {
  let protocolKind: WebRPCProtocol
  /// For Connect's JSON codec.
  let json: (any WebRPCJSONCodec)?
  /// Response messages are gzipped (gRPC-Web's `grpc-encoding`, Connect
  /// streaming's `connect-content-encoding`, Connect unary's whole body).
  let compression: CompressionAlgorithm

  /// Compressing a smaller Connect body costs more than it saves.
  static let minimumCompressedBytes = 1024

  var isText: Bool { protocolKind == .grpcWeb(text: true) }

  var contentType: String {
    // Literals, not interpolations: this runs for every call.
    switch protocolKind {
    case .grpcWeb(let text): text ? "application/grpc-web-text+proto" : "application/grpc-web+proto"
    case .connectUnary(.proto): "application/proto"
    case .connectUnary(.json): "application/json"
    case .connectStreaming(.proto): "application/connect+proto"
    case .connectStreaming(.json): "application/connect+json"
    }
  }

  /// The head of a successful (or streaming) response.
  func headFields(metadata: Metadata) -> HTTPFields {
    // Almost every call: no metadata, no compression; made once per kind.
    if metadata.isEmpty, compression == .identity {
      switch protocolKind {
      case .grpcWeb(text: false): return Self.plainHeads.grpcWeb
      case .grpcWeb(text: true): return Self.plainHeads.grpcWebText
      case .connectUnary(.proto): return Self.plainHeads.connectProto
      case .connectUnary(.json): return Self.plainHeads.connectJSON
      case .connectStreaming(.proto): return Self.plainHeads.connectStreamingProto
      case .connectStreaming(.json): return Self.plainHeads.connectStreamingJSON
      }
    }
    return makeHeadFields(metadata: metadata)
  }

  private static let plainHeads = (
    grpcWeb: plain(.grpcWeb(text: false)), grpcWebText: plain(.grpcWeb(text: true)),
    connectProto: plain(.connectUnary(.proto)), connectJSON: plain(.connectUnary(.json)),
    connectStreamingProto: plain(.connectStreaming(.proto)),
    connectStreamingJSON: plain(.connectStreaming(.json))
  )

  private static func plain(_ kind: WebRPCProtocol) -> HTTPFields {
    WebResponseFraming(protocolKind: kind, json: nil, compression: .identity)
      .makeHeadFields(metadata: Metadata())
  }

  private func makeHeadFields(metadata: Metadata) -> HTTPFields {
    var fields = HTTPFields()
    fields.append("content-type", contentType)
    switch protocolKind {
    case .grpcWeb:
      fields.append("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingValue)
      if compression != .identity { fields.append("grpc-encoding", compression.rawValue) }
    case .connectUnary:
      fields.append("accept-encoding", CompressionAlgorithm.acceptEncodingValue)
    case .connectStreaming:
      fields.append("connect-accept-encoding", CompressionAlgorithm.acceptEncodingValue)
      if compression != .identity {
        fields.append("connect-content-encoding", compression.rawValue)
      }
    }
    Self.append(metadata, to: &fields, prefix: "")
    return fields
  }

  /// The message's bytes as this protocol frames them in a streaming body
  /// (gRPC-Web, Connect streaming); for Connect unary, the bare body.
  func encode(message: [UInt8], deflater: () -> GzipDeflater) throws(GRPCStatus) -> [UInt8] {
    var payload = message
    if let json {
      payload = try message.withUnsafeBytes { bytes in
        Result { () throws(GRPCStatus) in try json.responseJSON(fromBinary: bytes) }
      }.get()
    }
    if case .connectUnary = protocolKind { return payload }
    var compressed = false
    if compression == .gzip, payload.count >= Self.minimumCompressedBytes || isGRPCWeb,
      let deflated = deflater().deflate(payload)
    {
      payload = deflated
      compressed = true
    }
    var framed: [UInt8] = []
    MessageFramer.append(payload, compressed: compressed, to: &framed)
    return framed
  }

  private var isGRPCWeb: Bool {
    if case .grpcWeb = protocolKind { return true }
    return false
  }

  /// What ends a streaming body: gRPC-Web's trailer frame, or Connect's
  /// end-of-stream message. Connect unary has none (see `unaryResponse`).
  func end(_ status: GRPCStatus, trailers: Metadata) -> [UInt8] {
    // Almost every call ends well and says nothing more: those ends are
    // made once.
    if status.code == .ok, status.message.isEmpty, trailers.isEmpty {
      if case .grpcWeb = protocolKind { return Self.okTrailerFrame }
      return Self.okEndOfStream
    }
    switch protocolKind {
    case .grpcWeb:
      var block = "grpc-status:\(status.code.rawValue)\r\n"
      if !status.message.isEmpty {
        block += "grpc-message:\(PercentEncoding.encode(status.message))\r\n"
      }
      if let details = status.details {
        block += "grpc-status-details-bin:\(Base64.encode(details))\r\n"
      }
      for (key, value) in trailers { block += "\(key):\(Self.text(value))\r\n" }
      return Self.envelope(flags: 0x80, Array(block.utf8))
    case .connectStreaming, .connectUnary:
      var members: [(key: String, value: JSONValue)] = []
      if status.code != .ok { members.append(("error", ConnectError.json(status))) }
      if !trailers.isEmpty {
        var grouped: [(key: String, value: JSONValue)] = []
        for (key, value) in trailers {
          if let index = grouped.firstIndex(where: { $0.key == key }),
            case .array(let values) = grouped[index].value
          {
            grouped[index].value = .array(values + [.string(Self.text(value))])
          } else {
            grouped.append((key, .array([.string(Self.text(value))])))
          }
        }
        members.append(("metadata", .object(grouped)))
      }
      return Self.envelope(flags: 0x02, Array(JSONWriter.compact(.object(members)).utf8))
    }
  }

  /// A whole response for a call that ends before or without streaming:
  /// Connect unary's message or error, or a streaming protocol's head and
  /// end in one body.
  func wholeResponse(
    status: GRPCStatus, metadata: Metadata, trailers: Metadata, body: [UInt8],
    deflater: () -> GzipDeflater
  ) -> HTTPResponse {
    guard case .connectUnary = protocolKind else {
      var bytes = body + end(status, trailers: trailers)
      if isText { bytes = Base64.encodedBytes(bytes, padded: true) }
      return HTTPResponse(status: 200, headers: headFields(metadata: metadata), body: bytes)
    }
    guard status.code == .ok else {
      var fields = HTTPFields()
      fields.append("content-type", "application/json")
      Self.append(metadata, to: &fields, prefix: "")
      Self.append(trailers, to: &fields, prefix: "trailer-")
      return HTTPResponse(
        status: ConnectError.httpStatus(status.code), headers: fields,
        body: ConnectError.body(status))
    }
    var fields = headFields(metadata: metadata)
    Self.append(trailers, to: &fields, prefix: "trailer-")
    var bytes = body
    if compression == .gzip, bytes.count >= Self.minimumCompressedBytes,
      let deflated = deflater().deflate(bytes)
    {
      bytes = deflated
      fields.append("content-encoding", "gzip")
    }
    return HTTPResponse(status: 200, headers: fields, body: bytes)
  }

  private static let okTrailerFrame = envelope(flags: 0x80, Array("grpc-status:0\r\n".utf8))
  private static let okEndOfStream = envelope(flags: 0x02, Array("{}".utf8))

  static func envelope(flags: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = UInt32(payload.count)
    return [
      flags, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
      UInt8(length & 0xFF),
    ] + payload
  }

  private static func append(_ metadata: Metadata, to fields: inout HTTPFields, prefix: String) {
    for (key, value) in metadata { fields.append(prefix + key, text(value)) }
  }

  private static func text(_ value: Metadata.Value) -> String {
    switch value {
    case .text(let text): text
    case .binary(let bytes): Base64.encode(bytes)
    }
  }
}
