import GRPCCore

/// A web call's request body taken apart into the method's protobuf
/// messages: gRPC-Web's frames (base64 first in text mode), Connect's bare
/// unary message or its envelopes, or Connect's GET query; inflated where
/// the client compressed, and from JSON through the method's codec.
struct WebRequestBody {
  let kind: WebRPCProtocol
  let headers: HTTPFields
  let maxMessageBytes: Int
  let json: (any WebRPCJSONCodec)?

  func messages(_ body: [UInt8]) throws(GRPCStatus) -> [[UInt8]] {
    switch kind {
    case .grpcWeb(let text):
      var bytes = body
      if text {
        let symbols = body.filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        guard let decoded = Base64.decodeConcatenated(symbols) else {
          throw GRPCStatus(.invalidArgument, "the grpc-web-text request body is not base64")
        }
        bytes = decoded
      }
      let encoding = try Self.algorithm(headers["grpc-encoding"], header: "grpc-encoding")
      return try envelopes(bytes, encoding: encoding, allowsEnd: false).map {
        (compressed, message) throws(GRPCStatus) in
        try inflated(message, compressed: compressed, encoding: encoding)
      }
    case .connectUnary(let codec):
      let encoding = try Self.algorithm(headers["content-encoding"], header: "content-encoding")
      guard encoding == .identity || !body.isEmpty else { return [try decoded([], codec)] }
      return [
        try decoded(
          try inflated(body, compressed: encoding != .identity, encoding: encoding), codec)
      ]
    case .connectStreaming(let codec):
      let encoding = try Self.algorithm(
        headers["connect-content-encoding"], header: "connect-content-encoding")
      return try envelopes(body, encoding: encoding, allowsEnd: false).map {
        (compressed, message) throws(GRPCStatus) in
        try decoded(try inflated(message, compressed: compressed, encoding: encoding), codec)
      }
    }
  }

  /// Connect's GET: `message` (base64url when `base64=1`), `compression`.
  func messages(fromQuery request: HTTPRequest) throws(GRPCStatus) -> [[UInt8]] {
    guard case .connectUnary(let codec) = kind else { return [] }
    guard let text = request.queryValue("message") else {
      throw GRPCStatus(.invalidArgument, "query parameter message is missing")
    }
    var bytes = Array(text.utf8)
    if request.queryValue("base64") == "1" {
      guard let decoded = Base64.decode(bytes) else {
        throw GRPCStatus(.invalidArgument, "query parameter message is not base64url")
      }
      bytes = decoded
    }
    let encoding = try Self.algorithm(request.queryValue("compression"), header: "compression")
    return [
      try decoded(try inflated(bytes, compressed: encoding != .identity, encoding: encoding), codec)
    ]
  }

  /// gRPC's five-byte prefixes, which Connect's envelopes share.
  private func envelopes(_ bytes: [UInt8], encoding: CompressionAlgorithm, allowsEnd: Bool)
    throws(GRPCStatus) -> [(compressed: Bool, message: [UInt8])]
  {
    var found: [(compressed: Bool, message: [UInt8])] = []
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= 5 else {
        throw GRPCStatus(.invalidArgument, "the request body ends inside a message prefix")
      }
      let flags = bytes[offset]
      let length =
        Int(bytes[offset + 1]) << 24 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 8
        | Int(bytes[offset + 4])
      guard flags & ~1 == 0 else {
        throw GRPCStatus(
          .invalidArgument, "a request message has flags \(flags); only compression (1) is allowed")
      }
      guard length <= maxMessageBytes else {
        throw GRPCStatus(
          .resourceExhausted,
          "a request message of \(length) bytes is larger than \(maxMessageBytes) bytes")
      }
      guard bytes.count - offset - 5 >= length else {
        throw GRPCStatus(.invalidArgument, "the request body ends inside a message")
      }
      found.append((flags & 1 == 1, Array(bytes[offset + 5..<offset + 5 + length])))
      offset += 5 + length
    }
    return found
  }

  private func inflated(_ message: [UInt8], compressed: Bool, encoding: CompressionAlgorithm)
    throws(GRPCStatus) -> [UInt8]
  {
    guard compressed else { return message }
    guard encoding == .gzip else {
      throw GRPCStatus(
        .internal, "a request message is flagged compressed but no encoding was named")
    }
    return try GzipInflater().inflateMessage(message, limit: maxMessageBytes).get()
  }

  private func decoded(_ message: [UInt8], _ codec: WebRPCCodec) throws(GRPCStatus) -> [UInt8] {
    guard codec == .json else { return message }
    guard let json else {
      throw GRPCStatus(.unimplemented, "this method does not accept JSON")
    }
    return try message.withUnsafeBytes { bytes in
      Result { () throws(GRPCStatus) in try json.requestBinary(fromJSON: bytes) }
    }.get()
  }

  private static func algorithm(_ name: String?, header: String) throws(GRPCStatus)
    -> CompressionAlgorithm
  {
    guard let algorithm = CompressionAlgorithm.forRequest(encoding: name) else {
      throw GRPCStatus(
        .unimplemented,
        "\(header) \"\(name ?? "")\" is not supported; this server accepts "
          + CompressionAlgorithm.acceptEncodingValue)
    }
    return algorithm
  }
}
