import Testing

@testable import gauge_bench

/// What the SSE subscribers read: a response head, a chunked body and the
/// events in it, arriving in pieces split at any byte.
@Suite struct EventStreamReaderTests {
  struct ReadEvent: Equatable {
    var name: String
    var data: String
  }

  static let head =
    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-store\r\n"
    + "Transfer-Encoding: chunked\r\n\r\n"

  /// gauged's shape: one chunk per write, an `id:` line on live events.
  static let chunkedBody =
    chunk(
      "event: upsert\ndata: {\"id\":\"w\",\"content\":{\"template\":\"value\",\"value\":1}}\n\n")
    + chunk("id: 7\nevent: synced\ndata: {\"revision\":7}\n\n")
    + chunk(": keepalive\n\n")
    + chunk(
      "id: 8\nevent: upsert\ndata: {\"id\":\"w\",\"content\":{\"value\":123456789012345}}\n\n")

  static let expected = [
    ReadEvent(name: "upsert", data: #"{"id":"w","content":{"template":"value","value":1}}"#),
    ReadEvent(name: "synced", data: #"{"revision":7}"#),
    ReadEvent(name: "upsert", data: #"{"id":"w","content":{"value":123456789012345}}"#),
  ]

  static func chunk(_ text: String) -> String {
    String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n"
  }

  /// Feeds `pieces` one after another; the events and the failure, if any.
  static func read(_ pieces: [[UInt8]]) -> (events: [ReadEvent], failure: String?) {
    var reader = EventStreamReader()
    var events: [ReadEvent] = []
    for piece in pieces {
      piece.withUnsafeBytes { bytes in
        reader.read(bytes) { event in
          events.append(
            ReadEvent(
              name: String(decoding: event.name, as: UTF8.self),
              data: String(decoding: event.data, as: UTF8.self)))
        }
      }
    }
    return (events, reader.failure)
  }

  @Test func wholeResponseInOnePiece() {
    let result = Self.read([Array((Self.head + Self.chunkedBody).utf8)])
    #expect(result.events == Self.expected)
    #expect(result.failure == nil)
  }

  @Test func everySplitIntoTwoPiecesReadsTheSame() {
    let bytes = Array((Self.head + Self.chunkedBody).utf8)
    for split in 0...bytes.count {
      let result = Self.read([Array(bytes[..<split]), Array(bytes[split...])])
      #expect(result.events == Self.expected, "split at \(split)")
      #expect(result.failure == nil, "split at \(split)")
    }
  }

  @Test func oneByteAtATimeReadsTheSame() {
    let result = Self.read(Array((Self.head + Self.chunkedBody).utf8).map { [$0] })
    #expect(result.events == Self.expected)
  }

  @Test func aBodyWithoutChunkingRunsToTheEnd() {
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n"
    let body = "event: synced\r\ndata: a\r\ndata: b\r\n\r\ndata: unnamed\n\n"
    let result = Self.read([Array((head + body).utf8)])
    #expect(
      result.events == [
        ReadEvent(name: "synced", data: "a\nb"), ReadEvent(name: "", data: "unnamed"),
      ])
  }

  @Test func commentsIdsAndEventsWithoutDataDispatchNothing() {
    let body = ": comment\nid: 3\nretry: 10\n\nevent: lonely\n\ndata:no space\n\n"
    let result = Self.read([Array((Self.head + Self.chunk(body)).utf8)])
    #expect(result.events == [ReadEvent(name: "", data: "no space")])
  }

  @Test func chunkExtensionsAndTrailersAreSkipped() {
    let body = "5;name=value\r\ndata:\r\n3 \r\n x\n\r\n1\r\n\n\r\n0\r\ntrailer: yes\r\n\r\n"
    let result = Self.read([Array((Self.head + body).utf8)])
    #expect(result.events == [ReadEvent(name: "", data: "x")])
    #expect(result.failure == "the event stream ended")
  }

  @Test func aStatusOtherThan200Fails() {
    let head = "HTTP/1.1 406 Not Acceptable\r\ncontent-length: 0\r\n\r\n"
    let result = Self.read([Array(head.utf8)])
    #expect(result.events.isEmpty)
    #expect(result.failure == "the event stream was answered with status 406")
  }

  @Test(arguments: ["zz\r\n", "3\r\nabcd\r\n"])
  func aBrokenChunkFails(body: String) {
    let result = Self.read([Array((Self.head + body).utf8)])
    #expect(result.failure != nil)
  }

  @Test func notHTTPFails() {
    let result = Self.read([Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)])
    #expect(result.failure?.hasPrefix("not an HTTP/1.1 status line") == true)
  }
}
