import CNGHTTP2
import GRPCCore

@testable import GRPCTransport

/// A real nghttp2 client session that talks to a `GRPCServerConnection`
/// through memory: no sockets, every byte visible.
final class InMemoryHTTP2Client {
  struct Response {
    var headers: [(String, String)] = []
    var trailers: [(String, String)] = []
    var body: [UInt8] = []
    var closed = false
    var resetCode: UInt32?
    /// DATA frames that carried nothing (and no END_STREAM).
    var emptyDataFrames = 0

    func header(_ name: String) -> String? {
      headers.first { $0.0 == name }?.1
    }

    func trailer(_ name: String) -> String? {
      trailers.first { $0.0 == name }?.1
    }

    /// grpc-status from trailers, or from the headers of a trailers-only answer.
    var grpcStatus: Int32? {
      (trailer("grpc-status") ?? header("grpc-status")).flatMap { Int32($0) }
    }

    var grpcMessage: String? {
      trailer("grpc-message") ?? header("grpc-message")
    }

    /// The body split into gRPC messages.
    var messages: [[UInt8]] {
      var out: [[UInt8]] = []
      var index = 0
      while index + 5 <= body.count {
        let length =
          Int(body[index + 1]) << 24 | Int(body[index + 2]) << 16 | Int(body[index + 3]) << 8
          | Int(body[index + 4])
        out.append(Array(body[index + 5..<index + 5 + length]))
        index += 5 + length
      }
      return out
    }
  }

  struct GoAway: Equatable {
    var lastStreamID: Int32
    var errorCode: UInt32
    var debug: String
  }

  private var session: OpaquePointer?
  var responses: [Int32: Response] = [:]
  /// Every GOAWAY the server sent, in order.
  var goAways: [GoAway] = []
  /// PINGs from the server (the session answers them itself).
  var pingsReceived = 0
  var pingAcksReceived = 0
  private var uploads: [Int32: (bytes: [UInt8], offset: Int, end: Bool)] = [:]
  let server: GRPCServerConnection

  /// With `readsEagerly` false the client never opens its receive window
  /// again: a peer that has stopped reading.
  init(server: GRPCServerConnection, readsEagerly: Bool = true) {
    self.server = server
    var callbacks: OpaquePointer?
    nghttp2_session_callbacks_new(&callbacks)
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_header_callback(callbacks, clientOnHeader)
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, clientOnData)
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, clientOnClose)
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, clientOnFrame)
    var options: OpaquePointer?
    nghttp2_option_new(&options)
    defer { nghttp2_option_del(options) }
    nghttp2_option_set_no_auto_window_update(options, readsEagerly ? 0 : 1)
    nghttp2_session_client_new2(
      &session, callbacks, Unmanaged.passUnretained(self).toOpaque(), options)
    nghttp2_submit_settings(session, 0, nil, 0)
  }

  deinit {
    nghttp2_session_del(session)
  }

  static func grpcHeaders(path: String, extra: [(String, String)] = []) -> [(String, String)] {
    [
      (":method", "POST"), (":scheme", "http"), (":authority", "test"), (":path", path),
      ("content-type", "application/grpc"), ("te", "trailers"),
    ] + extra
  }

  /// Opens a stream; `body` is uploaded as DATA, ending the stream when `end`.
  @discardableResult
  func start(headers: [(String, String)], body: [UInt8] = [], end: Bool = true) -> Int32 {
    var storage: [[UInt8]] = headers.flatMap { [Array($0.0.utf8), Array($0.1.utf8)] }
    let streamID: Int32 = storage.withUnsafeMutableBufferPointer { buffers in
      var nva: [nghttp2_nv] = []
      for index in stride(from: 0, to: buffers.count, by: 2) {
        let name = buffers[index].withUnsafeMutableBufferPointer { $0.baseAddress! }
        let value = buffers[index + 1].withUnsafeMutableBufferPointer { $0.baseAddress ?? name }
        nva.append(
          nghttp2_nv(
            name: name, value: value, namelen: buffers[index].count,
            valuelen: buffers[index + 1].count, flags: 0))
      }
      if body.isEmpty && end {
        return nghttp2_submit_request(session, nil, nva, nva.count, nil, nil)
      }
      var provider = nghttp2_data_provider(
        source: nghttp2_data_source(ptr: nil), read_callback: clientReadUpload)
      return nghttp2_submit_request(session, nil, nva, nva.count, &provider, nil)
    }
    uploads[streamID] = (body, 0, end)
    responses[streamID] = Response()
    return streamID
  }

  /// More request bytes for an open stream.
  func upload(_ bytes: [UInt8], on streamID: Int32, end: Bool) {
    uploads[streamID]!.bytes += bytes
    uploads[streamID]!.end = end
    nghttp2_session_resume_data(session, streamID)
  }

  /// Opens the receive windows again by what was read, like a reader that
  /// catches up.
  func consumeAll() {
    for (stream, response) in responses {
      nghttp2_session_consume(session, stream, response.body.count)
    }
  }

  /// How many more request bytes the server's flow control lets this
  /// stream send.
  func sendWindow(of streamID: Int32) -> Int32 {
    nghttp2_session_get_stream_remote_window_size(session, streamID)
  }

  func reset(_ streamID: Int32, code: UInt32 = NGHTTP2_CANCEL.rawValue) {
    nghttp2_submit_rst_stream(session, 0, streamID, code)
  }

  func ping() {
    nghttp2_submit_ping(session, 0, nil)
  }

  /// Everything the server has queued, straight through the client session,
  /// with nothing sent back: a peer that reads but does not answer.
  func readOnly() {
    var toClient: [UInt8] = []
    _ = server.drainOutput(into: &toClient)
    deliver(toClient)
  }

  /// Server output taken by hand, read by the client session.
  func deliver(_ toClient: [UInt8]) {
    toClient.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      _ = nghttp2_session_mem_recv(
        session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
  }

  /// What the client has queued, into the server; the server's answer
  /// stays with it until the next `exchange`. Returns whether there was any.
  @discardableResult
  func sendPending() -> Bool {
    var toServer: [UInt8] = []
    while true {
      var chunk: UnsafePointer<UInt8>?
      let count = nghttp2_session_mem_send(session, &chunk)
      guard count > 0, let chunk else { break }
      toServer.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
    }
    if toServer.isEmpty { return false }
    _ = toServer.withUnsafeBytes { server.receive($0) }
    return true
  }

  /// Moves bytes both ways until neither side has anything left to say.
  func exchange() {
    for _ in 0..<100 {
      let sent = sendPending()
      var toClient: [UInt8] = []
      _ = server.drainOutput(into: &toClient)
      deliver(toClient)
      if !sent && toClient.isEmpty { return }
    }
  }

  /// Raw bytes straight into the server, bypassing the client session.
  func sendRaw(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { server.receive($0) }
  }

  fileprivate func received(header name: String, value: String, stream: Int32, isTrailer: Bool) {
    if isTrailer {
      responses[stream, default: Response()].trailers.append((name, value))
    } else {
      responses[stream, default: Response()].headers.append((name, value))
    }
  }

  fileprivate func received(data: UnsafeRawBufferPointer, stream: Int32) {
    responses[stream, default: Response()].body += data
  }

  fileprivate func closed(stream: Int32, code: UInt32) {
    responses[stream, default: Response()].closed = true
    if code != 0 { responses[stream, default: Response()].resetCode = code }
  }

  fileprivate func received(frame: UnsafePointer<nghttp2_frame>) {
    switch UInt32(frame.pointee.hd.type) {
    case NGHTTP2_GOAWAY.rawValue:
      let goaway = frame.pointee.goaway
      goAways.append(
        GoAway(
          lastStreamID: goaway.last_stream_id, errorCode: goaway.error_code,
          debug: String(
            decoding: UnsafeBufferPointer(start: goaway.opaque_data, count: goaway.opaque_data_len),
            as: UTF8.self)))
    case NGHTTP2_PING.rawValue:
      if frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 {
        pingAcksReceived += 1
      } else {
        pingsReceived += 1
      }
    case NGHTTP2_DATA.rawValue:
      let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
      if frame.pointee.hd.length == 0, !endStream {
        responses[frame.pointee.hd.stream_id, default: Response()].emptyDataFrames += 1
      }
    default:
      break
    }
  }

  fileprivate func readUpload(stream: Int32, into buffer: UnsafeMutableRawBufferPointer) -> (
    Int, eof: Bool, deferred: Bool
  ) {
    guard var upload = uploads[stream] else { return (0, true, false) }
    let count = min(buffer.count, upload.bytes.count - upload.offset)
    upload.bytes.withUnsafeBytes { source in
      buffer.copyMemory(
        from: UnsafeRawBufferPointer(rebasing: source[upload.offset..<upload.offset + count]))
    }
    upload.offset += count
    uploads[stream] = upload
    if upload.offset == upload.bytes.count {
      return upload.end ? (count, true, false) : (count, false, count == 0)
    }
    return (count, false, false)
  }

  fileprivate static func from(_ userData: UnsafeMutableRawPointer?) -> InMemoryHTTP2Client {
    Unmanaged<InMemoryHTTP2Client>.fromOpaque(userData!).takeUnretainedValue()
  }
}

/// gRPC framing of one message.
func framed(_ message: [UInt8], compressed: Bool = false) -> [UInt8] {
  var out: [UInt8] = []
  MessageFramer.append(message, compressed: compressed, to: &out)
  return out
}

private func clientOnHeader(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ name: UnsafePointer<UInt8>?, _ nameLength: Int, _ value: UnsafePointer<UInt8>?,
  _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  let client = InMemoryHTTP2Client.from(userData)
  let streamID = frame!.pointee.hd.stream_id
  let isTrailer =
    frame!.pointee.headers.cat == NGHTTP2_HCAT_HEADERS
    && client.responses[streamID]?.headers.isEmpty == false
  client.received(
    header: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
    value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self),
    stream: streamID, isTrailer: isTrailer)
  return 0
}

private func clientOnData(
  _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?,
  _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  InMemoryHTTP2Client.from(userData).received(
    data: UnsafeRawBufferPointer(start: data, count: length), stream: streamID)
  return 0
}

private func clientOnClose(
  _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  InMemoryHTTP2Client.from(userData).closed(stream: streamID, code: errorCode)
  return 0
}

private func clientOnFrame(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  InMemoryHTTP2Client.from(userData).received(frame: frame!)
  return 0
}

private func clientReadUpload(
  _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?,
  _ length: Int, _ dataFlags: UnsafeMutablePointer<UInt32>?,
  _ source: UnsafeMutablePointer<nghttp2_data_source>?, _ userData: UnsafeMutableRawPointer?
) -> Int {
  let (count, eof, deferred) = InMemoryHTTP2Client.from(userData).readUpload(
    stream: streamID, into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
  if deferred { return Int(NGHTTP2_ERR_DEFERRED.rawValue) }
  if eof { dataFlags!.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
  return count
}
