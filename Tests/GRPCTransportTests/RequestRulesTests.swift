import Testing

@testable import GRPCTransport

/// RFC 9113's rules for a request's header block (sections 8.2 and 8.3),
/// as `RequestHead` applies them field by field and at the block's end.
@Suite struct RequestRulesTests {
  private static let request: [(String, String)] = [
    (":method", "POST"), (":scheme", "http"), (":path", "/test.Echo/Echo"),
    (":authority", "localhost:9090"), ("content-type", "application/grpc"), ("te", "trailers"),
  ]

  @Test func aGRPCRequestIsComplete() {
    let (head, verdicts) = Self.add(Self.request)
    #expect(verdicts.allSatisfy { $0 == .kept })
    #expect(head.isCompleteRequest)
  }

  @Test(
    arguments: [
      // A pseudo-header twice.
      [(":path", "/again")], [(":method", "GET")], [(":scheme", "https")],
      [(":authority", "other")],
      // One no request may carry, or that gauged does not offer.
      [(":status", "200")], [(":protocol", "websocket")], [(":unknown", "x")],
      // Fields HTTP/2 forbids.
      [("connection", "close")], [("keep-alive", "5")], [("proxy-connection", "x")],
      [("transfer-encoding", "chunked")], [("upgrade", "h2c")],
      [("te", "gzip")], [("te", "trailers, deflate")],
      // Names with capitals.
      [("X-Custom", "a")], [("Content-Type", "application/grpc")],
      // content-length that is not a length, or twice.
      [("content-length", "ten")], [("content-length", "-1")],
      [("content-length", "5"), ("content-length", "5")],
      [("host", "a"), ("host", "a")], [("host", "a b")], [("host", "")],
    ] as [[(String, String)]])
  func aFieldAfterAValidRequestMakesItMalformed(extra: [(String, String)]) {
    let (_, verdicts) = Self.add(Self.request + extra)
    #expect(verdicts.last == .malformed)
    #expect(verdicts.dropLast().allSatisfy { $0 == .kept })
  }

  @Test(
    arguments: [
      [(":method", "")], [(":method", "GE T")], [(":path", "")], [(":path", "/a b")],
      [(":scheme", "1http")], [(":scheme", "")], [(":authority", "")],
      [(":authority", "a/b")], [(":authority", " localhost")],
    ] as [[(String, String)]])
  func aBadPseudoHeaderValueIsMalformed(fields: [(String, String)]) {
    #expect(Self.add(fields).verdicts == [.malformed])
  }

  /// A regular field with a bad value or a bad name is left out, and the
  /// request goes on; but it still counts as a regular field.
  @Test func aBadRegularFieldIsDroppedAndEndsThePseudoHeaders() {
    let (head, verdicts) = Self.add(
      Self.request + [
        ("x-value", "a\r\nb"), ("x-blank", " padded"), ("x y", "v"), ("x-kept", "yes"),
      ])
    #expect(verdicts.suffix(4) == [.dropped, .dropped, .dropped, .kept])
    #expect(head.metadata.values(for: "x-value").isEmpty)
    #expect(head.metadata.values(for: "x-kept") == [.text("yes")])
    #expect(head.isCompleteRequest)
    for dropped in [("x y", "v"), ("x-value", "\u{0}")] {
      let (_, order) = Self.add([(":method", "POST"), dropped, (":path", "/p")])
      #expect(order == [.kept, .dropped, .malformed])
    }
  }

  @Test func aPseudoHeaderAfterARegularOneIsMalformed() {
    let (_, verdicts) = Self.add([(":method", "POST"), ("user-agent", "x"), (":path", "/p")])
    #expect(verdicts == [.kept, .kept, .malformed])
  }

  @Test func teTrailersIsComparedWithoutCase() {
    #expect(Self.add(Self.request + [("te", "Trailers")]).verdicts.last == .kept)
  }

  @Test(
    arguments: [
      // Each of the required pseudo-headers missing.
      (["POST", "http", nil, "a"], false), (["POST", nil, "/p", "a"], false),
      ([nil, "http", "/p", "a"], false), (["POST", "http", "/p", nil], false),
      // http(s) paths start with "/"; "*" is for OPTIONS alone.
      (["POST", "http", "p", "a"], false), (["POST", "https", "*", "a"], false),
      (["OPTIONS", "http", "*", "a"], true), (["POST", "HTTP", "x", "a"], false),
      // Other schemes leave the path's form to themselves.
      (["POST", "foo", "x", "a"], true),
      // CONNECT names only an authority.
      (["CONNECT", nil, nil, "a"], true), (["CONNECT", nil, "/p", "a"], false),
      (["CONNECT", "http", nil, "a"], false), (["CONNECT", nil, nil, nil], false),
    ] as [([String?], Bool)])
  func aRequestNeedsItsPseudoHeaders(values: [String?], complete: Bool) {
    let names = [":method", ":scheme", ":path", ":authority"]
    let fields = zip(names, values).compactMap { name, value in value.map { (name, $0) } }
    let (head, verdicts) = Self.add(fields)
    #expect(verdicts.allSatisfy { $0 == .kept })
    #expect(head.isCompleteRequest == complete)
  }

  @Test func hostStandsInForTheAuthority() {
    let fields = [(":method", "POST"), (":scheme", "http"), (":path", "/p"), ("host", "a:1")]
    #expect(Self.add(fields).head.isCompleteRequest)
  }

  @Test func trailersCarryNoPseudoHeaderAndNoLength() {
    for field in [(":path", "/p"), ("content-length", "0")] {
      var head = RequestHead()
      head.isTrailers = true
      #expect(Self.add([field], to: &head) == [.malformed])
    }
    var head = RequestHead()
    head.isTrailers = true
    #expect(Self.add([("x-checksum", "abc")], to: &head) == [.kept])
  }

  // MARK: - Helpers

  private static func add(_ fields: [(String, String)]) -> (
    head: RequestHead, verdicts: [RequestHead.FieldVerdict]
  ) {
    var head = RequestHead()
    let verdicts = add(fields, to: &head)
    return (head, verdicts)
  }

  /// Adds fields until the first malformed one, as the connection stops
  /// there too.
  private static func add(_ fields: [(String, String)], to head: inout RequestHead)
    -> [RequestHead.FieldVerdict]
  {
    var verdicts: [RequestHead.FieldVerdict] = []
    for (name, value) in fields {
      let verdict = Array(name.utf8).withUnsafeBytes { name in
        Array(value.utf8).withUnsafeBytes { value in
          head.add(name: name, value: value, limit: 1 << 14)
        }
      }
      verdicts.append(verdict)
      if verdict == .malformed { break }
    }
    return verdicts
  }
}
