import CNGHTTP2
import Testing

@testable import GRPCTransport
@testable import HTTP2

/// RFC 9113's rules for frames on streams the client closed or never
/// opened, and for PRIORITY frames (sections 5.1, 5.1.1, 5.3.1 and 6.3):
/// libnghttp2 forgets closed streams and skips PRIORITY once the server
/// announces SETTINGS_NO_RFC7540_PRIORITIES, so the server session follows
/// the client's frames itself (`InboundFrameScanner`).
@Suite struct StreamStateRulesTests {
  private let protocolError = NGHTTP2_PROTOCOL_ERROR.rawValue
  private let streamClosed = NGHTTP2_STREAM_CLOSED.rawValue

  @Test func priorityOnStreamZeroEndsTheConnection() {
    let peer = openPeer()
    #expect(!peer.send(priority(stream: 0, dependsOn: 1)))
    peer.read()
    #expect(peer.goAways.map(\.errorCode) == [protocolError])
  }

  @Test func priorityMakingAStreamDependOnItselfEndsTheConnection() {
    let peer = openPeer()
    #expect(!peer.send(priority(stream: 3, dependsOn: 3, exclusive: true)))
    peer.read()
    #expect(peer.goAways.map(\.errorCode) == [protocolError])
  }

  @Test func aPriorityFrameSplitAcrossReadsIsStillRead() {
    let peer = openPeer()
    let frame = priority(stream: 1, dependsOn: 1)
    for byte in frame.dropLast(2) { #expect(peer.send([byte])) }
    #expect(!peer.send(Array(frame.suffix(2))))
    peer.read()
    #expect(peer.goAways.map(\.errorCode) == [protocolError])
  }

  @Test func priorityOnAnotherStreamIsIgnored() {
    let peer = openPeer()
    #expect(peer.send(priority(stream: 3, dependsOn: 1)))
    expectServing(peer, stream: 5)
  }

  @Test(arguments: [true, false])
  func aFrameOnAStreamIdTheClientSkippedEndsTheConnection(headers: Bool) {
    let peer = openPeer()
    peer.send(RawFrames.headers(stream: 5, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    let late =
      headers
      ? RawFrames.headers(stream: 3, block: RawFrames.requestBlock(path: "/test.Echo/Echo"))
      : data(stream: 3, framed([1]))
    #expect(!peer.send(late))
    peer.read()
    #expect(peer.goAways == [.init(lastStreamID: 5, errorCode: protocolError, debug: reason)])
  }

  @Test(arguments: [true, false])
  func aFrameAfterTheClientResetTheStreamEndsTheConnection(headers: Bool) {
    let peer = openPeer()
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    peer.send(RawFrames.reset(stream: 1))
    let late =
      headers
      ? RawFrames.headers(stream: 1, block: [], endStream: true) : data(stream: 1, framed([1]))
    #expect(!peer.send(late))
    peer.read()
    #expect(peer.goAways.map(\.errorCode) == [streamClosed])
  }

  @Test func dataAfterEndStreamOnAClosedStreamEndsTheConnection() {
    let peer = openPeer()
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Echo")))
    peer.send(data(stream: 1, framed([1]), endStream: true))
    peer.read()
    #expect(peer.server.openStreamCount == 0)
    #expect(!peer.send(data(stream: 1, framed([2]))))
    peer.read()
    #expect(peer.goAways.map(\.errorCode) == [streamClosed])
  }

  @Test func dataAfterEndStreamOnAHalfClosedStreamIsTheSessionsToJudge() {
    let peer = openPeer()
    peer.send(RawFrames.headers(stream: 1, block: RawFrames.requestBlock(path: "/test.Echo/Hold")))
    peer.send(data(stream: 1, framed([1]), endStream: true))
    peer.send(data(stream: 1, framed([2])))
    peer.read()
    // libnghttp2 makes it a connection error too, in its own words.
    #expect(peer.goAways.map(\.errorCode) == [streamClosed])
    #expect(!peer.server.isAlive)
    #expect(
      peer.goAways.first?.debug != InboundFrameScanner.Violation.streamClosedByClient(1).reason)
  }

  @Test func framesOnAStreamTheServerResetAreIgnored() {
    let peer = openPeer()
    // More content than declared: the server resets the stream while the
    // client may still have frames on their way.
    peer.send(
      RawFrames.headers(
        stream: 1,
        block: RawFrames.requestBlock(path: "/test.Echo/Hold", extra: [("content-length", "1")])))
    peer.send(data(stream: 1, framed([1])))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    #expect(peer.send(data(stream: 1, framed([2]))))
    #expect(peer.send(RawFrames.headers(stream: 1, block: [], endStream: true)))
    #expect(peer.goAways.isEmpty)
    expectServing(peer, stream: 3)
  }

  @Test func aPlainAnswerLeavesTheRequestToFinish() {
    let peer = openPeer()
    peer.send(RawFrames.headers(stream: 1, block: getBlock(extra: [("content-length", "3")])))
    peer.read()
    // Answered already or not, the request is not cut short: the rest of
    // it is still read, and held to its rules.
    #expect(peer.resetCode(stream: 1) == nil)
    peer.send(data(stream: 1, [1, 2, 3, 4], endStream: true))
    peer.read()
    #expect(peer.resetCode(stream: 1) == protocolError)
    expectServing(peer, stream: 3)
  }

  @Test func aPlainAnswerClosesTheStreamOnceTheRequestEnds() {
    let peer = openPeer()
    peer.send(RawFrames.headers(stream: 1, block: getBlock()))
    peer.read()
    #expect(peer.server.openStreamCount == 1)
    peer.send(data(stream: 1, [], endStream: true))
    peer.read()
    #expect(peer.server.openStreamCount == 0)
    #expect(peer.resetCode(stream: 1) == nil)
  }

  private var reason: String { InboundFrameScanner.Violation.streamNeverOpened(3).reason }

  private func priority(stream: Int32, dependsOn: Int32, exclusive: Bool = false) -> [UInt8] {
    let dependency = UInt32(dependsOn) | (exclusive ? 0x8000_0000 : 0)
    return RawFrames.frame(
      type: 0x2, stream: stream,
      payload: (0..<4).map { UInt8(dependency >> (24 - 8 * $0) & 0xff) } + [15])
  }

  private func data(stream: Int32, _ payload: [UInt8], endStream: Bool = false) -> [UInt8] {
    RawFrames.frame(type: 0x0, flags: endStream ? 0x1 : 0, stream: stream, payload: payload)
  }

  private func getBlock(extra: [(String, String)] = []) -> [UInt8] {
    RawFrames.block(
      [(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "localhost")]
        + extra)
  }

  private func openPeer() -> RawPeer {
    let peer = RawPeer()
    peer.open()
    return peer
  }

  /// The connection still serves a well-formed call on `stream`.
  private func expectServing(_ peer: RawPeer, stream: Int32) {
    let before = peer.service.handlers.count
    peer.send(
      RawFrames.headers(stream: stream, block: RawFrames.requestBlock(path: "/test.Echo/Echo")))
    peer.send(data(stream: stream, framed([9]), endStream: true))
    peer.read()
    #expect(peer.resetCode(stream: stream) == nil)
    #expect(peer.service.handlers.count == before + 1)
    #expect(peer.service.handlers.last?.messages == [[9]])
    #expect(peer.server.isAlive)
  }
}

/// The scanner on its own: frame boundaries across buffers, and the window
/// of streams it remembers.
@Suite struct InboundFrameScannerTests {
  @Test func aViolationIsFoundWhereverTheInputIsCut() {
    let input =
      RawFrames.preface + RawFrames.settings()
      + RawFrames.headers(stream: 1, block: [0x82], endStream: true)
      + RawFrames.frame(type: 0x0, stream: 1, payload: [1, 2, 3])
    let frameStart = input.count - 12
    for cut in 0...input.count {
      var scanner = InboundFrameScanner()
      var found: [(Int, InboundFrameScanner.Violation)] = []
      var fed = 0
      for (base, part) in [(0, input[..<cut]), (cut, input[cut...])] {
        Array(part).withUnsafeBytes { bytes in
          var offset = 0
          while offset < bytes.count {
            let stop = scanner.scan(bytes, from: offset)
            fed = base + stop.cleanEnd
            if let violation = stop.violation { found.append((fed, violation)) }
            offset = stop.resume
          }
        }
      }
      #expect(found.map(\.1) == [.streamClosedByClient(1)], "cut at \(cut)")
      // The session gets everything before the offending frame first, and
      // a header cut in two has its first part fed already.
      let headerCut = cut > frameStart && cut < frameStart + 9
      #expect(found.first?.0 == (headerCut ? cut : frameStart), "cut at \(cut)")
    }
  }

  @Test func trailersOnAnOlderStreamEndItThenCloseIt() {
    let input =
      RawFrames.preface + RawFrames.headers(stream: 1, block: [])
      + RawFrames.headers(stream: 3, block: [])
      + RawFrames.frame(type: 0x0, stream: 1, payload: [1])
      + RawFrames.headers(stream: 1, block: [], endStream: true)
      + RawFrames.frame(type: 0x8, stream: 1, payload: [0, 0, 0, 1])
      + RawFrames.frame(type: 0x0, stream: 3, payload: [1])
      + RawFrames.reset(stream: 3)
      + RawFrames.frame(type: 0x0, stream: 1, payload: [1])
      + RawFrames.frame(type: 0x0, stream: 3, payload: [1])
    var scanner = InboundFrameScanner()
    #expect(
      violations(in: input, by: &scanner) == [.streamClosedByClient(1), .streamClosedByClient(3)])
  }

  @Test func streamsBeyondTheWindowAreLeftToTheSession() {
    var scanner = InboundFrameScanner()
    var input = RawFrames.preface + RawFrames.headers(stream: 1, block: [], endStream: true)
    for stream in stride(from: Int32(3), through: 129, by: 2) {
      input += RawFrames.headers(stream: stream, block: [], endStream: true)
    }
    input += RawFrames.frame(type: 0x0, stream: 3, payload: [1])
    input += RawFrames.frame(type: 0x0, stream: 1, payload: [1])
    // Stream 3 is the 64th below 129, still remembered; stream 1 is not.
    #expect(violations(in: input, by: &scanner) == [.streamClosedByClient(3)])
  }

  private func violations(in input: [UInt8], by scanner: inout InboundFrameScanner)
    -> [InboundFrameScanner.Violation]
  {
    input.withUnsafeBytes { bytes in
      var found: [InboundFrameScanner.Violation] = []
      var offset = 0
      while offset < bytes.count {
        let stop = scanner.scan(bytes, from: offset)
        if let violation = stop.violation { found.append(violation) }
        offset = stop.resume
      }
      return found
    }
  }
}
