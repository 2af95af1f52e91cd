import CHTTPParser

/// libhttp-parser driven for requests: bytes in, whole requests and
/// failures out, as values. The parser stops (pauses) at the end of every
/// request head and every request, so the session sees each one before
/// the bytes after it are parsed, and can check the head's raw bytes for
/// what the library lets through (obs-fold, a bare CR). Nothing here does
/// I/O or calls back into the session.
final class HTTP1RequestParser {
  /// What one step of parsing found.
  enum Event {
    /// A request's head is complete; its body (if any) follows.
    case head(HTTP1RequestHead)
    /// The body went past `maxBodyBytes`.
    case bodyTooLarge
    /// A whole request (head and body).
    case request(HTTP1RequestHead, body: [UInt8])
    /// The bytes cannot be a request: answer `status` and close.
    case failure(status: Int, detail: String)
    /// The request line does not start with a method: perhaps no HTTP/1
    /// at all (a broken HTTP/2 preface, TLS on a cleartext port).
    case notAMethod(detail: String)
  }

  private let parser: UnsafeMutablePointer<http_parser>
  private let maxBodyBytes: Int
  /// The request being read.
  private var head = HTTP1RequestHead()
  private var body: [UInt8] = []
  /// Which part of a field the parser read last: libhttp-parser may hand a
  /// name or a value over in pieces (when it spans reads), each added to
  /// the field begun with its name's first piece.
  private var field = FieldInProgress.none
  private var pendingEvent: Event?
  /// Between the end of one request and the end of the next one's head.
  private(set) var readingHead = true
  /// True once some byte of the current request has arrived.
  private(set) var requestStarted = false
  private var headScan = HeadByteScan()

  init(maxHeadBytes: Int, maxBodyBytes: Int) {
    HTTP1RequestParser.setHeadLimit(maxHeadBytes)
    self.maxBodyBytes = maxBodyBytes
    parser = .allocate(capacity: 1)
    http_parser_init(parser, HTTP_REQUEST)
  }

  deinit {
    parser.deallocate()
  }

  /// libhttp-parser keeps this limit process-wide; every session sets the
  /// same value.
  private static func setHeadLimit(_ bytes: Int) {
    http_parser_set_max_header_size(UInt32(bytes))
  }

  /// Parses from `bytes` up to the next event; returns it with how many
  /// bytes were consumed, or nil once every byte was taken without one.
  func next(_ bytes: UnsafeRawBufferPointer) -> (event: Event?, consumed: Int) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return (nil, 0) }
    let scansHead = readingHead
    parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    let consumed = http_parser_execute(
      parser, &HTTP1ParserCallbacks.settings, base.assumingMemoryBound(to: CChar.self), bytes.count)
    parser.pointee.data = nil
    if scansHead,
      let failure = headScan.scan(UnsafeRawBufferPointer(rebasing: bytes[0..<consumed]))
    {
      return (.failure(status: 400, detail: failure), consumed)
    }
    let errno = http_errno(rawValue: gauged_http_errno(parser))
    if errno == HPE_PAUSED {
      http_parser_pause(parser, 0)
      let event = pendingEvent
      pendingEvent = nil
      return (event, consumed)
    }
    if errno != HPE_OK {
      if let pendingEvent {
        self.pendingEvent = nil
        return (pendingEvent, consumed)
      }
      return (Self.failure(for: errno), consumed)
    }
    if gauged_http_upgrade(parser) != 0 {
      // An Upgrade gauged does not take (h2c, websocket): the request is
      // answered as HTTP/1.1 (RFC 9110 section 7.8) and the parser starts
      // over on what follows.
      http_parser_init(parser, HTTP_REQUEST)
      let event = pendingEvent
      pendingEvent = nil
      return (event, consumed)
    }
    return (nil, consumed)
  }

  private static func failure(for errno: http_errno) -> Event {
    let description = String(cString: http_errno_description(errno))
    switch errno {
    case HPE_HEADER_OVERFLOW:
      return .failure(status: 431, detail: "the request line and headers are too large")
    case HPE_UNEXPECTED_CONTENT_LENGTH:
      return .failure(
        status: 400,
        detail: "content-length with transfer-encoding, or more than one content-length")
    case HPE_INVALID_METHOD:
      return .notAMethod(detail: "unknown method: \(description)")
    case HPE_INVALID_VERSION:
      return .failure(status: 505, detail: "only HTTP/1.0 and HTTP/1.1 are spoken here")
    default:
      return .failure(status: 400, detail: "malformed request: \(description)")
    }
  }

  // MARK: Callbacks (through HTTP1ParserCallbacks)

  fileprivate func messageBegan() {
    head = HTTP1RequestHead()
    // A typical head's fields in one allocation each, not several as the
    // arrays grow.
    head.fields = HTTPFields(reservingFields: 8, bytes: 256)
    body = []
    field = .none
    readingHead = true
    requestStarted = true
    headScan = HeadByteScan()
  }

  fileprivate func url(_ bytes: UnsafeRawBufferPointer) {
    head.target += String(decoding: bytes, as: UTF8.self)
  }

  fileprivate func headerField(_ bytes: UnsafeRawBufferPointer) {
    if field != .name {
      head.fields.beginField()
      field = .name
    }
    head.fields.appendToName(bytes)
  }

  fileprivate func headerValue(_ bytes: UnsafeRawBufferPointer) {
    guard field != .none else { return }
    field = .value
    head.fields.appendToValue(bytes)
  }

  fileprivate func headersComplete() -> Int32 {
    field = .none
    head.method = Self.name(of: http_method(rawValue: gauged_http_method(parser)))
    head.version =
      parser.pointee.http_major == 1 && parser.pointee.http_minor == 0 ? .http1_0 : .http1_1
    head.keepAlive = http_should_keep_alive(parser) != 0
    head.chunked = gauged_http_is_chunked(parser) != 0
    head.contentLength = head.chunked ? nil : Int(clamping: parser.pointee.content_length)
    if let length = head.contentLength, length == Int(clamping: UInt64.max) {
      head.contentLength = nil
    }
    readingHead = false
    if let failure = HTTP1HeadRules.violation(
      of: head, major: Int(parser.pointee.http_major))
    {
      pendingEvent = failure
      return -1
    }
    if let length = head.contentLength, length > maxBodyBytes {
      pendingEvent = .bodyTooLarge
      // Not 1 or 2: to libhttp-parser those mean "no body" and "upgrade".
      return -1
    }
    pendingEvent = .head(head)
    http_parser_pause(parser, 1)
    return 0
  }

  /// The method's name: the common ones as literals, which cost no copy
  /// or check of the library's C string.
  private static func name(of method: http_method) -> String {
    switch method {
    case HTTP_GET: "GET"
    case HTTP_POST: "POST"
    case HTTP_PATCH: "PATCH"
    case HTTP_PUT: "PUT"
    case HTTP_DELETE: "DELETE"
    case HTTP_HEAD: "HEAD"
    case HTTP_OPTIONS: "OPTIONS"
    default: String(cString: http_method_str(method))
    }
  }

  fileprivate func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard body.count + bytes.count <= maxBodyBytes else {
      pendingEvent = .bodyTooLarge
      return 1
    }
    body.append(contentsOf: bytes)
    return 0
  }

  fileprivate func messageComplete() {
    pendingEvent = .request(head, body: body)
    body = []
    requestStarted = false
    readingHead = true
    headScan = HeadByteScan()
    http_parser_pause(parser, 1)
  }
}

/// Where the parser is in a header field.
private enum FieldInProgress {
  case none
  case name
  case value
}

/// A request head as the parser read it, field names folded to lower case.
struct HTTP1RequestHead {
  var method = ""
  var target = ""
  var fields = HTTPFields()
  var version = HTTPVersion.http1_1
  var keepAlive = true
  var chunked = false
  /// nil when the body is chunked or absent without a length.
  var contentLength: Int?
}

/// Looks at a request head's raw bytes for what RFC 9112 lets a server
/// refuse and libhttp-parser accepts: a line folded onto the one before
/// (obs-fold), a CR not followed by LF, and NUL. The first two have been used to smuggle
/// requests past proxies that read them differently.
struct HeadByteScan {
  private var previous: UInt8 = 0
  private var sawLineFeed = false

  mutating func scan(_ bytes: UnsafeRawBufferPointer) -> String? {
    for byte in bytes {
      defer { previous = byte }
      // RFC 9110 section 5.5: a NUL in a field would reach faces, and
      // their problem answers would echo it.
      if byte == 0 { return "a NUL byte in the request head" }
      if previous == UInt8(ascii: "\r"), byte != UInt8(ascii: "\n") {
        return "a bare CR in the request head"
      }
      if previous == UInt8(ascii: "\n"), sawLineFeed,
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
      {
        return "a header line folded onto the one before (obs-fold)"
      }
      if byte == UInt8(ascii: "\n") { sawLineFeed = true }
    }
    return nil
  }
}

/// The C callbacks: each recovers its parser from `data` and never lets a
/// Swift error cross into C.
enum HTTP1ParserCallbacks {
  nonisolated(unsafe) static var settings: http_parser_settings = {
    var settings = http_parser_settings()
    http_parser_settings_init(&settings)
    settings.on_message_begin = onMessageBegin
    settings.on_url = onURL
    settings.on_header_field = onHeaderField
    settings.on_header_value = onHeaderValue
    settings.on_headers_complete = onHeadersComplete
    settings.on_body = onBody
    settings.on_message_complete = onMessageComplete
    return settings
  }()
}

private func owner(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTP1RequestParser? {
  guard let data = parser?.pointee.data else { return nil }
  return Unmanaged<HTTP1RequestParser>.fromOpaque(data).takeUnretainedValue()
}

private func bytes(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeRawBufferPointer {
  UnsafeRawBufferPointer(start: at, count: at == nil ? 0 : length)
}

private func onMessageBegin(_ parser: UnsafeMutablePointer<http_parser>?) -> Int32 {
  owner(parser)?.messageBegan()
  return 0
}

private func onURL(
  _ parser: UnsafeMutablePointer<http_parser>?, _ at: UnsafePointer<CChar>?, _ length: Int
) -> Int32 {
  owner(parser)?.url(bytes(at, length))
  return 0
}

private func onHeaderField(
  _ parser: UnsafeMutablePointer<http_parser>?, _ at: UnsafePointer<CChar>?, _ length: Int
) -> Int32 {
  owner(parser)?.headerField(bytes(at, length))
  return 0
}

private func onHeaderValue(
  _ parser: UnsafeMutablePointer<http_parser>?, _ at: UnsafePointer<CChar>?, _ length: Int
) -> Int32 {
  owner(parser)?.headerValue(bytes(at, length))
  return 0
}

private func onHeadersComplete(_ parser: UnsafeMutablePointer<http_parser>?) -> Int32 {
  owner(parser)?.headersComplete() ?? 1
}

private func onBody(
  _ parser: UnsafeMutablePointer<http_parser>?, _ at: UnsafePointer<CChar>?, _ length: Int
) -> Int32 {
  owner(parser)?.bodyBytes(bytes(at, length)) ?? 1
}

private func onMessageComplete(_ parser: UnsafeMutablePointer<http_parser>?) -> Int32 {
  owner(parser)?.messageComplete()
  return 0
}
