import GRPCCore
import HTTP2

/// Requests that are not gRPC calls, handed to the HTTP faces through an
/// `HTTP2Exchange`: the same request model and responder as HTTP/1.1.
extension GRPCServerConnection {
  func beginHTTPRequest(_ stream: ServerStream, head: borrowing RequestHead, endStream: Bool) {
    var fields = HTTPFields(reservingFields: head.metadata.count + 4, bytes: 128)
    if !head.contentType.isEmpty { fields.append("content-type", head.contentType) }
    // Read apart for gRPC calls; gRPC-Web reads them from the request.
    if let timeout = head.timeout {
      fields.append("grpc-timeout", String(decoding: timeout, as: UTF8.self))
    }
    if let encoding = head.encoding { fields.append("grpc-encoding", encoding) }
    if let accepted = head.acceptEncoding { fields.append("grpc-accept-encoding", accepted) }
    for (key, value) in head.metadata {
      switch value {
      case .text(let text): fields.append(key, text)
      // Decoded as gRPC metadata; a web call reads `-bin` fields as HTTP sent them.
      case .binary(let bytes): fields.append(key, Base64.encode(bytes))
      }
    }
    let request = HTTPRequest(
      method: head.methodText, target: head.pathText, headers: fields, version: .http2)
    let exchange = HTTP2Exchange(
      request: request, stream: stream, connection: self, scheduler: scheduler)
    stream.handler = exchange
    if endStream { httpRequestEnded(stream) }
  }

  /// Body bytes of a non-gRPC request; true when the stream carries one.
  @discardableResult
  func collectHTTPBody(_ stream: ServerStream, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard stream.call == nil, let exchange = stream.handler as? HTTP2Exchange else { return false }
    let limit = group.http1Configuration.maxBodyBytes
    if !exchange.collect(bytes, limit: limit) {
      _ = exchange.takeRequest()
      exchange.respond(
        ProblemDetails(status: 413, detail: "the request body is larger than \(limit) bytes")
          .response)
    }
    return true
  }

  /// True when the stream carries a non-gRPC request (now handed over).
  @discardableResult
  func httpRequestEnded(_ stream: ServerStream) -> Bool {
    guard stream.call == nil, let exchange = stream.handler as? HTTP2Exchange else { return false }
    if let request = exchange.takeRequest() {
      group.httpResponder.handle(request, exchange: exchange)
    }
    return true
  }

  func respond(on stream: ServerStream, with response: HTTPResponse, headOnly: Bool) {
    guard streams[stream.id] === stream else { return }
    stream.responseStarted = true
    let hasLength = response.status >= 200 && response.status != 204
    let endsStream = headOnly || response.body.isEmpty
    submitHead(
      on: stream, status: response.status, headers: response.headers,
      contentLength: hasLength ? response.body.count : nil, endsStream: endsStream)
    if endsStream {
      outputReady()
      return
    }
    stream.outbound.append(contentsOf: response.body)
    queuedResponseBytes += response.body.count
    stream.ending = .endStream
    wake(stream)
  }

  func startHTTPStream(on stream: ServerStream, status: Int, headers: HTTPFields, headOnly: Bool) {
    guard streams[stream.id] === stream else { return }
    stream.responseStarted = true
    submitHead(
      on: stream, status: status, headers: headers, contentLength: nil, endsStream: headOnly)
    outputReady()
  }

  /// `:status`, the face's fields but those HTTP/2 forbids, and the
  /// length when known, laid out straight from the fields' bytes.
  private func submitHead(
    on stream: ServerStream, status: Int, headers: HTTPFields, contentLength: Int?,
    endsStream: Bool
  ) {
    let statusText = status == 200 ? "200" : String(status)
    let lengthText = contentLength.map { String($0) }
    session.submitResponse(
      streamID: stream.id, endsStream: endsStream, maxFields: headers.count + 2,
      maxTextBytes: headers.byteCount + ":status".utf8.count + statusText.utf8.count
        + "content-length".utf8.count + (lengthText?.utf8.count ?? 0)
    ) { block in
      block.add(":status", statusText)
      headers.forEachField { name, value in
        if !Self.isConnectionSpecific(name) { block.add(name: name, value: value) }
      }
      if let lengthText { block.add("content-length", lengthText) }
    }
  }

  func writeHTTPStream(on stream: ServerStream, _ bytes: [UInt8]) {
    guard streams[stream.id] === stream, stream.ending == nil else { return }
    stream.outbound.append(contentsOf: bytes)
    queuedResponseBytes += bytes.count
    wake(stream)
  }

  func finishHTTPStream(on stream: ServerStream) {
    guard streams[stream.id] === stream, stream.ending == nil else { return }
    stream.ending = .endStream
    wake(stream)
  }

  /// A stream that ran dry asks its streaming face for more.
  func askHTTPStreamForMore(_ stream: ServerStream) {
    guard stream.call == nil, let exchange = stream.handler as? HTTP2Exchange,
      let drained = exchange.onOutboundDrained
    else { return }
    drained()
  }

  /// HTTP/2 forbids these (RFC 9113 section 8.2.2).
  private static func isConnectionSpecific(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    // By length first: few names have these lengths.
    switch name.count {
    case 7: HTTPFields.name(name, is: "upgrade")
    case 10: HTTPFields.name(name, is: "connection") || HTTPFields.name(name, is: "keep-alive")
    case 14: HTTPFields.name(name, is: "content-length")
    case 16: HTTPFields.name(name, is: "proxy-connection")
    case 17: HTTPFields.name(name, is: "transfer-encoding")
    default: false
    }
  }

}
