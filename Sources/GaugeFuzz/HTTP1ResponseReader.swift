import GaugeJSON

/// Reads what an HTTP/1.1 server wrote as a client would: a sequence of
/// responses, each a status line, header fields and a body framed by
/// `content-length`, chunked coding, or the connection's end. It is fed
/// the whole output so far each time and remembers nothing between reads
/// but what it was told about the requests, so a response cut short by the
/// end of the bytes is only "not finished yet".
struct HTTP1ResponseReader {
  struct Response {
    var status: Int
    /// Names folded to lower case.
    var fields: [(name: String, value: String)]
    var body: [UInt8]
    /// False while its body is still arriving.
    var isComplete: Bool
    var closesConnection: Bool

    func field(_ name: String) -> String? {
      fields.first { $0.name == name }?.value
    }
  }

  /// Final responses (interim `100 Continue` left out), the last one
  /// possibly unfinished.
  private(set) var responses: [Response] = []
  /// True when the bytes end inside a status line or header block.
  private(set) var endsInsideHead = false

  /// `isHeadRequest(index)` says whether the request the index-th final
  /// response answers was a HEAD, whose answer has no body whatever its
  /// fields say.
  static func read(_ bytes: [UInt8], isHeadRequest: (Int) -> Bool) throws(FuzzFinding) -> Self {
    var reader = HTTP1ResponseReader()
    var offset = 0
    while offset < bytes.count {
      if let last = reader.responses.last {
        if !last.isComplete {
          throw FuzzFinding("bytes after a response whose body runs to the connection's end")
        }
        if last.closesConnection {
          throw FuzzFinding(
            "a response said connection: close, yet \(bytes.count - offset) more byte(s) follow")
        }
      }
      guard let headEnd = Self.endOfHead(bytes, from: offset) else {
        try Self.checkPartialHead(bytes[offset...])
        reader.endsInsideHead = true
        return reader
      }
      let (status, fields) = try Self.head(bytes[offset..<headEnd])
      offset = headEnd + 4
      if (100..<200).contains(status) {
        guard status == 100, fields.isEmpty else {
          throw FuzzFinding("an interim response other than a bare 100 Continue: \(status)")
        }
        continue
      }
      var response = Response(
        status: status, fields: fields, body: [], isComplete: true,
        closesConnection: fields.contains { $0.name == "connection" && $0.value == "close" })
      try Self.readBody(
        of: &response, headOnly: isHeadRequest(reader.responses.count), bytes, &offset)
      reader.responses.append(response)
    }
    return reader
  }

  private static func endOfHead(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 3 < bytes.count {
      if bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D,
        bytes[index + 3] == 0x0A
      {
        return index
      }
      index += 1
    }
    return nil
  }

  /// What has arrived of a head must at least start like one.
  private static func checkPartialHead(_ bytes: ArraySlice<UInt8>) throws(FuzzFinding) {
    let prefix = Array("HTTP/1.1 ".utf8)
    let shown = bytes.prefix(prefix.count)
    guard Array(shown) == Array(prefix.prefix(shown.count)) else {
      throw FuzzFinding("output that is not a response: \(Self.quoted(bytes.prefix(40)))")
    }
  }

  private static func head(_ bytes: ArraySlice<UInt8>) throws(FuzzFinding) -> (
    Int, [(name: String, value: String)]
  ) {
    let lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\r\n", omittingEmptySubsequences: false)
    let statusLine = lines[0]
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "HTTP/1.1", parts[1].count == 3,
      let status = Int(parts[1]), (100..<600).contains(status), !parts[2].isEmpty
    else {
      throw FuzzFinding("a malformed status line: \(Self.quoted(statusLine.utf8.prefix(80)))")
    }
    var fields: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else {
        throw FuzzFinding("a header line without a colon: \(Self.quoted(line.utf8.prefix(80)))")
      }
      let name = line[..<colon]
      guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
        throw FuzzFinding("a header name that is not a token: \(Self.quoted(name.utf8))")
      }
      let value = line[line.index(after: colon)...].drop { $0 == " " }
      guard value.utf8.allSatisfy({ $0 != 0x0D && $0 != 0x0A && $0 != 0 }) else {
        throw FuzzFinding("header \(name) has a CR, LF or NUL in its value")
      }
      fields.append((name.lowercased(), String(value)))
    }
    return (status, fields)
  }

  private static func readBody(
    of response: inout Response, headOnly: Bool, _ bytes: [UInt8], _ offset: inout Int
  ) throws(FuzzFinding) {
    let lengths = response.fields.filter { $0.name == "content-length" }
    let codings = response.fields.filter { $0.name == "transfer-encoding" }
    if lengths.count > 1 || (!lengths.isEmpty && !codings.isEmpty) {
      throw FuzzFinding("\(response.status) carries two framings (content-length, chunked)")
    }
    // RFC 9110 section 8.6 and 6.4.1.
    if response.status == 204, !lengths.isEmpty || !codings.isEmpty {
      throw FuzzFinding("204 carries content-length or transfer-encoding, which it must not")
    }
    if headOnly || response.status == 204 || response.status == 304 { return }
    if let length = lengths.first {
      guard let count = Int(length.value), count >= 0 else {
        throw FuzzFinding("content-length \(length.value) is not a length")
      }
      let end = min(bytes.count, offset + count)
      response.body = Array(bytes[offset..<end])
      response.isComplete = end == offset + count
      offset = end
    } else if let coding = codings.first {
      guard coding.value == "chunked" else {
        throw FuzzFinding("transfer-encoding \(coding.value) is not chunked")
      }
      try readChunks(into: &response, bytes, &offset)
    } else {
      // No framing: the body is everything up to the close, which the
      // response must announce.
      guard response.closesConnection else {
        throw FuzzFinding("\(response.status) has no framing and does not close the connection")
      }
      response.body = Array(bytes[offset...])
      response.isComplete = false
      offset = bytes.count
    }
  }

  private static func readChunks(
    into response: inout Response, _ bytes: [UInt8], _ offset: inout Int
  ) throws(FuzzFinding) {
    response.isComplete = false
    while true {
      guard let lineEnd = lineEnd(bytes, from: offset) else {
        guard bytes[offset...].allSatisfy(isHexDigit) else {
          throw FuzzFinding("a chunk size that is not hexadecimal")
        }
        offset = bytes.count
        return
      }
      let sizeText = String(decoding: bytes[offset..<lineEnd], as: UTF8.self)
      guard !sizeText.isEmpty, sizeText.utf8.allSatisfy(isHexDigit),
        let size = Int(sizeText, radix: 16)
      else {
        throw FuzzFinding("a malformed chunk size line: \(Self.quoted(sizeText.utf8.prefix(40)))")
      }
      let dataStart = lineEnd + 2
      if size == 0 {
        // No trailers are ever sent: the last chunk ends with an empty line.
        let rest = bytes[dataStart..<min(bytes.count, dataStart + 2)]
        guard Array(rest) == Array([0x0D, 0x0A].prefix(rest.count)) else {
          throw FuzzFinding("the last chunk is not followed by an empty line")
        }
        offset = dataStart + rest.count
        response.isComplete = rest.count == 2
        return
      }
      let dataEnd = dataStart + size
      guard dataEnd + 2 <= bytes.count else {
        response.body += bytes[dataStart..<min(bytes.count, dataEnd)]
        let tail = bytes[min(bytes.count, dataEnd)...]
        guard Array(tail) == Array([0x0D, 0x0A].prefix(tail.count)) else {
          throw FuzzFinding("a chunk's data is not followed by CRLF")
        }
        offset = bytes.count
        return
      }
      guard bytes[dataEnd] == 0x0D, bytes[dataEnd + 1] == 0x0A else {
        throw FuzzFinding("a chunk of \(size) bytes is not followed by CRLF")
      }
      response.body += bytes[dataStart..<dataEnd]
      offset = dataEnd + 2
    }
  }

  private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 1 < bytes.count {
      if bytes[index] == 0x0D, bytes[index + 1] == 0x0A { return index }
      index += 1
    }
    return nil
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }

  /// RFC 9110's tchar.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
  }

  static func quoted<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    JSONWriter.quoted(String(decoding: Array(bytes), as: UTF8.self))
  }
}
