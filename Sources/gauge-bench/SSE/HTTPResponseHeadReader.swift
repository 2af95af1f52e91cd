/// The status line and fields of an HTTP/1.1 response, gathered until the
/// blank line that ends them, whatever pieces they arrive in: an event
/// stream's reader needs the status and whether the body is chunked.
struct HTTPResponseHeadReader {
  struct Head: Equatable {
    var status: Int
    /// `Transfer-Encoding` ends in `chunked`; otherwise the body runs to
    /// the end of the connection (an event stream has no length).
    var isChunked: Bool
  }

  enum Outcome: Equatable {
    case needsMore
    /// The body starts at `bodyStart` in the bytes just read.
    case head(Head, bodyStart: Int)
    case malformed(String)
  }

  /// Far more than gauged sends: a peer that sends more is not answering.
  static let maximumBytes = 16 << 10

  private var gathered: [UInt8] = []

  mutating func read(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    let searchFrom = max(0, gathered.count - 3)
    let earlier = gathered.count
    gathered.append(contentsOf: bytes)
    guard let end = Self.blankLine(in: gathered, from: searchFrom) else {
      return gathered.count > Self.maximumBytes
        ? .malformed("no end of the response head in \(Self.maximumBytes) bytes") : .needsMore
    }
    let outcome = Self.parse(gathered[..<end])
    gathered = []
    switch outcome {
    case .success(let head): return .head(head, bodyStart: end + 4 - earlier)
    case .failure(let problem): return .malformed(problem.description)
    }
  }

  /// Where the first CRLF CRLF at or after `start` begins.
  private static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 3 < bytes.count {
      if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10
      {
        return index
      }
      index += 1
    }
    return nil
  }

  private static func parse(_ bytes: ArraySlice<UInt8>) -> Result<Head, BenchFailure> {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
    let statusLine = lines.popFirst() ?? ""
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
      let status = Int(parts[1])
    else {
      return .failure(BenchFailure("not an HTTP/1.1 status line: \(statusLine.prefix(80))"))
    }
    var isChunked = false
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      guard line[..<colon].lowercased() == "transfer-encoding" else { continue }
      let lastCoding = line[line.index(after: colon)...].split(separator: ",").last
      isChunked = lastCoding?.trimmingSpaces.lowercased() == "chunked"
    }
    return .success(Head(status: status, isChunked: isChunked))
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var trimmed = self
    while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
    while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
    return trimmed
  }
}
