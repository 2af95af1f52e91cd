import CNGHTTP2

/// Owns one nghttp2 session, server or client. Bytes go in through
/// `receive`, frames come out through `drainOutput`; no I/O happens here.
package final class NGHTTP2Session {
  package enum Role {
    /// Accepts streams the peer opens (`GRPCServerConnection`).
    case server
    /// Opens streams with `submitRequest` (`GRPCClientConnection`).
    case client
  }

  package struct Settings {
    package var maxConcurrentStreams: UInt32 = 1000
    package var initialWindowSize: UInt32 = 1 << 20
    package var connectionWindowSize: Int32 = 8 << 20
    package var maxHeaderListSize: UInt32 = 16 << 10

    package init() {}
  }

  package enum Failure: Error, Equatable {
    /// nghttp2 gave up on the connection (bad preface, flood, protocol
    /// error); a GOAWAY may be queued, so drain output before closing.
    case fatal(String)
  }

  private var session: OpaquePointer?
  package weak var delegate: HTTP2SessionDelegate?

  package init(role: Role = .server, settings: Settings) {
    var callbacks: OpaquePointer?
    nghttp2_session_callbacks_new(&callbacks)
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
    nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSent)

    var options: OpaquePointer?
    nghttp2_option_new(&options)
    defer { nghttp2_option_del(options) }
    // Defences that this libnghttp2 carries (Debian backports them to 1.52).
    nghttp2_option_set_max_settings(options, 32)
    nghttp2_option_set_max_outbound_ack(options, 1000)
    nghttp2_option_set_max_continuations(options, 8)
    nghttp2_option_set_stream_reset_rate_limit(options, 1000, 33)

    switch role {
    case .server:
      nghttp2_session_server_new2(&session, callbacks, nil, options)
    case .client:
      nghttp2_session_client_new2(&session, callbacks, nil, options)
    }
    precondition(session != nil, "nghttp2_session_new2 failed (out of memory)")
    nghttp2_session_set_user_data(session, Unmanaged.passUnretained(self).toOpaque())

    var entries = [
      nghttp2_settings_entry(
        settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
        value: settings.maxConcurrentStreams),
      nghttp2_settings_entry(
        settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue),
        value: settings.initialWindowSize),
      nghttp2_settings_entry(
        settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
        value: settings.maxHeaderListSize),
    ]
    if role == .client {
      // gRPC has no use for server push.
      entries.append(
        nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0))
    }
    nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    nghttp2_session_set_local_window_size(
      session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, settings.connectionWindowSize)
  }

  deinit {
    nghttp2_session_del(session)
  }

  /// Feeds received bytes; callbacks run before this returns.
  package func receive(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    let result = nghttp2_session_mem_recv(
      session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    if result < 0 {
      throw .fatal(String(cString: nghttp2_strerror(Int32(result))))
    }
  }

  /// Appends every frame ready to go to `buffer`.
  package func drainOutput(into buffer: inout [UInt8]) throws(Failure) {
    while true {
      var chunk: UnsafePointer<UInt8>?
      let count = nghttp2_session_mem_send(session, &chunk)
      if count < 0 { throw .fatal(String(cString: nghttp2_strerror(Int32(count)))) }
      guard count > 0, let chunk else { return }
      buffer.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
    }
  }

  /// False once both sides are done: the connection can be closed.
  package var isAlive: Bool {
    nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0
  }

  package var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }

  /// Response headers; with `hasBody` the stream's data comes from the
  /// delegate's `streamOutbound`, otherwise the headers end the stream.
  package func submitResponse(streamID: Int32, headers: [HeaderField], hasBody: Bool) {
    withNameValues(headers) { nva in
      if hasBody {
        var provider = nghttp2_data_provider(
          source: nghttp2_data_source(ptr: nil), read_callback: readOutbound)
        _ = nghttp2_submit_response(session, streamID, nva.baseAddress, nva.count, &provider)
      } else {
        _ = nghttp2_submit_response(session, streamID, nva.baseAddress, nva.count, nil)
      }
    }
  }

  /// Wakes a stream whose data source said `.pending`.
  package func resumeData(streamID: Int32) {
    _ = nghttp2_session_resume_data(session, streamID)
  }

  package func resetStream(streamID: Int32, errorCode: UInt32) {
    _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
  }

  package func isRemoteClosed(streamID: Int32) -> Bool {
    nghttp2_session_get_stream_remote_close(session, streamID) != 0
  }

  package func goAway(errorCode: UInt32, debug: String = "") {
    let lastStream = nghttp2_session_get_last_proc_stream_id(session)
    var bytes = Array(debug.utf8)
    _ = nghttp2_submit_goaway(
      session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStream, errorCode, &bytes, bytes.count)
  }

  /// Opens a stream with request headers; its data comes from the
  /// delegate's `streamOutbound`. Returns the stream id, or nil when no
  /// stream can be opened (ids exhausted, the session is going away).
  package func submitRequest(headers: [HeaderField]) -> Int32? {
    var streamID: Int32 = -1
    withNameValues(headers) { nva in
      var provider = nghttp2_data_provider(
        source: nghttp2_data_source(ptr: nil), read_callback: readOutbound)
      streamID = nghttp2_submit_request(session, nil, nva.baseAddress, nva.count, &provider, nil)
    }
    return streamID > 0 ? streamID : nil
  }

  fileprivate func submitTrailers(streamID: Int32, trailers: [HeaderField]) {
    withNameValues(trailers) { nva in
      _ = nghttp2_submit_trailer(session, streamID, nva.baseAddress, nva.count)
    }
  }

  /// nghttp2 copies names and values on submit, so they only need to live
  /// for the duration of `body`.
  private func withNameValues(
    _ headers: [HeaderField], _ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> Void
  ) {
    var storage = [UInt8]()
    storage.reserveCapacity(headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
    var spans: [(name: Range<Int>, value: Range<Int>)] = []
    spans.reserveCapacity(headers.count)
    for header in headers {
      let nameStart = storage.count
      storage.append(contentsOf: header.name.utf8)
      let valueStart = storage.count
      storage.append(contentsOf: header.value.utf8)
      spans.append((nameStart..<valueStart, valueStart..<storage.count))
    }
    storage.withUnsafeMutableBufferPointer { raw in
      // An empty array may have no base address; nghttp2 still needs a pointer.
      var placeholder: UInt8 = 0
      let base = raw.baseAddress ?? withUnsafeMutablePointer(to: &placeholder) { $0 }
      var nva = spans.map { span in
        nghttp2_nv(
          name: base + span.name.lowerBound, value: base + span.value.lowerBound,
          namelen: span.name.count, valuelen: span.value.count,
          flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
      }
      nva.withUnsafeMutableBufferPointer { body($0) }
    }
  }

  fileprivate static func from(_ userData: UnsafeMutableRawPointer?) -> NGHTTP2Session? {
    guard let userData else { return nil }
    return Unmanaged<NGHTTP2Session>.fromOpaque(userData).takeUnretainedValue()
  }
}

// nghttp2 callbacks. Each recovers the session from user data, reports to
// the delegate, and never lets a Swift error escape into C.

private let callbackFailure = NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
private let temporalFailure = NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue

private func isRequestHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Bool {
  frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue)
}

private func onBeginHeaders(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let owner = NGHTTP2Session.from(userData), let frame else { return callbackFailure }
  if isRequestHeaders(frame), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
    owner.delegate?.streamBegan(frame.pointee.hd.stream_id)
  }
  return 0
}

private func onHeader(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ name: UnsafePointer<UInt8>?, _ nameLength: Int, _ value: UnsafePointer<UInt8>?,
  _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let owner = NGHTTP2Session.from(userData), let frame else { return callbackFailure }
  let accepted =
    owner.delegate?.streamHeader(
      frame.pointee.hd.stream_id,
      name: UnsafeRawBufferPointer(start: name, count: nameLength),
      value: UnsafeRawBufferPointer(start: value, count: valueLength)) ?? false
  // A temporal failure resets just this stream; the connection lives on.
  return accepted ? 0 : temporalFailure
}

private func onFrameReceived(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let owner = NGHTTP2Session.from(userData), let frame else { return callbackFailure }
  let streamID = frame.pointee.hd.stream_id
  let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
  switch UInt32(frame.pointee.hd.type) {
  case NGHTTP2_HEADERS.rawValue:
    let category = frame.pointee.headers.cat
    if category == NGHTTP2_HCAT_REQUEST || category == NGHTTP2_HCAT_RESPONSE {
      owner.delegate?.streamHeadersEnded(streamID, endStream: endStream)
    } else if endStream {
      // Trailers: the header callbacks delivered them; END_STREAM is what
      // is left to report.
      owner.delegate?.streamEnded(streamID)
    }
  case NGHTTP2_DATA.rawValue:
    if endStream { owner.delegate?.streamEnded(streamID) }
  default:
    break
  }
  return 0
}

private func onDataChunk(
  _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?,
  _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let owner = NGHTTP2Session.from(userData) else { return callbackFailure }
  owner.delegate?.streamData(streamID, UnsafeRawBufferPointer(start: data, count: length))
  return 0
}

private func onStreamClose(
  _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let owner = NGHTTP2Session.from(userData) else { return callbackFailure }
  owner.delegate?.streamClosed(streamID, errorCode: errorCode)
  return 0
}

private func onFrameSent(
  _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
  _ userData: UnsafeMutableRawPointer?
) -> Int32 {
  guard let owner = NGHTTP2Session.from(userData), let frame else { return callbackFailure }
  let type = UInt32(frame.pointee.hd.type)
  let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
  if endStream, type == NGHTTP2_HEADERS.rawValue || type == NGHTTP2_DATA.rawValue {
    owner.delegate?.streamEndSent(frame.pointee.hd.stream_id)
  }
  return 0
}

private func readOutbound(
  _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?,
  _ length: Int, _ dataFlags: UnsafeMutablePointer<UInt32>?,
  _ source: UnsafeMutablePointer<nghttp2_data_source>?, _ userData: UnsafeMutableRawPointer?
) -> Int {
  guard let owner = NGHTTP2Session.from(userData), let delegate = owner.delegate else {
    return Int(callbackFailure)
  }
  let chunk = delegate.streamOutbound(
    streamID, into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
  switch chunk {
  case .bytes(let count):
    return count
  case .pending:
    return Int(NGHTTP2_ERR_DEFERRED.rawValue)
  case .end(let count, let trailers):
    var flags = NGHTTP2_DATA_FLAG_EOF.rawValue
    if let trailers {
      flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
      owner.submitTrailers(streamID: streamID, trailers: trailers)
    }
    dataFlags?.pointee |= flags
    return count
  }
}
