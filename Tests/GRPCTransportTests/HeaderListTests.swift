import CNGHTTP2
import Testing

@testable import GRPCTransport

/// The request header list is capped at 16 KiB as HTTP/2 counts it; a
/// stream over the cap is reset with ENHANCE_YOUR_CALM (grpc-core's answer,
/// which stock clients report as RESOURCE_EXHAUSTED), its connection lives on.
@Suite struct HeaderListTests {
  @Test func oversizedHeaderListResetsOnlyItsStream() {
    let (client, service, _) = makeConnection()
    let big = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Echo", extra: [("x-big", String(repeating: "a", count: 17_000))]),
      body: framed([1]))
    client.exchange()
    #expect(client.responses[big]!.resetCode == NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    #expect(service.handlers.isEmpty)
    let next = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(path: "/test.Echo/Echo"), body: framed([2]))
    client.exchange()
    #expect(client.responses[next]!.messages == [[2]])
  }

  /// Pooled header blocks keep a small path buffer from request to
  /// request, but not one a long path made large.
  @Test func aResetHeadKeepsOnlyASmallPathBuffer() {
    var head = RequestHead()
    let short = Array("/test.Echo/Echo".utf8)
    short.withUnsafeBytes { value in
      _ = head.add(name: UnsafeRawBufferPointer(ascii: ":path"), value: value, limit: 1 << 16)
    }
    head.reset()
    #expect(head.path.isEmpty)
    #expect(head.path.capacity >= short.count)
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 4_000)
    long.withUnsafeBytes { value in
      _ = head.add(name: UnsafeRawBufferPointer(ascii: ":path"), value: value, limit: 1 << 16)
    }
    #expect(head.path == long)
    head.reset()
    #expect(head.path.capacity <= RequestHead.keptPathCapacity)
  }

  /// References to one large header in the HPACK table: a few kilobytes on
  /// the wire, 60 KB decoded (a client session will not send a block that
  /// could exceed 64 KB unindexed).
  @Test func hpackBombIsCutOffAtTheCap() {
    let (client, service, _) = makeConnection()
    // Small enough for the client's encoder to put it in the table.
    let value = String(repeating: "b", count: 2000)
    let bomb = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Echo", extra: Array(repeating: ("x-bomb", value), count: 30)),
      body: framed([1]))
    client.exchange()
    #expect(client.responses[bomb]!.resetCode == NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    #expect(service.handlers.isEmpty)
    #expect(client.server.isAlive)
    #expect(client.server.openStreamCount == 0)
  }

  @Test func headerListJustUnderTheCapIsServed() {
    let (client, service, _) = makeConnection()
    // The request's own headers take about 300 bytes of the 16,384.
    let stream = client.start(
      headers: InMemoryHTTP2Client.grpcHeaders(
        path: "/test.Echo/Echo", extra: [("x-big", String(repeating: "c", count: 15_000))]),
      body: framed([3]))
    client.exchange()
    #expect(client.responses[stream]!.messages == [[3]])
    #expect(
      service.handlers[0].call.metadata["x-big"] == .text(String(repeating: "c", count: 15_000)))
  }

  /// A reset head is a fresh one, whatever the request set: pooled blocks
  /// carry nothing from one request to the next.
  @Test(arguments: ["text/plain", "application/grpc"])
  func aResetHeadEqualsAFreshOne(contentType: String) {
    var head = RequestHead()
    let fields: [(String, String)] = [
      (":method", "POST"), (":path", "/test.Echo/Echo"), (":scheme", "http"),
      (":authority", "test"), ("host", "test"), ("content-length", "5"),
      ("content-type", contentType),
      ("grpc-timeout", "1S"), ("grpc-encoding", "gzip"), ("grpc-accept-encoding", "gzip"),
      ("x-custom", "kept"), ("x-raw-bin", "not base64!"),
    ]
    for (name, value) in fields {
      let added = Array(name.utf8).withUnsafeBytes { name in
        Array(value.utf8).withUnsafeBytes { value in
          head.add(name: name, value: value, limit: 1 << 14)
        }
      }
      #expect(added == .kept)
    }
    head.isTrailers = true
    #expect(String(describing: head) != String(describing: RequestHead()))
    head.reset()
    #expect(String(describing: head) == String(describing: RequestHead()))
  }

  /// Nothing is kept once the list is over its cap, however long it goes on.
  @Test func requestHeadStopsStoringAtTheCap() {
    var head = RequestHead()
    let name = Array("x-key".utf8)
    let value = [UInt8](repeating: 0x61, count: 1000)
    var accepted = 0
    for _ in 0..<100 {
      let added = name.withUnsafeBytes { n in
        value.withUnsafeBytes { v in head.add(name: n, value: v, limit: 16 << 10) }
      }
      if added == .kept { accepted += 1 }
    }
    // 1,037 bytes per field under a 16,384-byte cap.
    #expect(accepted == 15)
    #expect(head.metadata.values(for: "x-key").count == 15)
  }
}

extension UnsafeRawBufferPointer {
  /// A header name's bytes; valid for the program's life (a literal's).
  fileprivate init(ascii name: StaticString) {
    self.init(start: name.utf8Start, count: name.utf8CodeUnitCount)
  }
}
