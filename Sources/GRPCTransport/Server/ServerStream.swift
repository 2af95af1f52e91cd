import GRPCCore
import HTTP2

/// The server's state for one HTTP/2 stream carrying one gRPC call.
final class ServerStream {
  enum Ending {
    /// Trailers close the stream after the last DATA frame.
    case trailers(PackedHeaders)
    /// The last DATA frame carries END_STREAM (plain HTTP answers).
    case endStream
  }

  /// Where the response body's DATA source stands in nghttp2. A source is
  /// attached only while there is something to send: an idle subscription
  /// would otherwise keep one (about 100 bytes in nghttp2) for hours. It is
  /// cheaper too: a source left attached between a subscription's events
  /// (put to sleep with DEFERRED, woken with `resumeData`) cost 22% more
  /// server CPU per event at 700 subscribers x 1,000 updates/s than
  /// attaching one per event.
  enum Body {
    /// Nothing attached: queued bytes or the end attach one (`attachData`).
    case detached
    /// nghttp2 reads it as flow control allows.
    case attached
    /// Attached, but it said `.pending`: `resumeData` wakes it.
    case sleeping
    /// The end of the stream (END_STREAM or trailers) is submitted.
    case ended
  }

  // The fields are ordered to leave little padding: with `declaredBytesLeft`
  // the stream still fits a 144-byte malloc chunk, which a subscription
  // holds for its whole life.
  let id: Int32
  /// How to reset the stream if the client is still sending when we end it.
  var resetCodeAfterEnd: UInt32 = 0
  var deframer: MessageDeframer
  var call: ServerCall?
  var handler: RPCHandler?
  var deadlineTimer: ScheduledWork?
  /// How request messages flagged as compressed are encoded.
  var requestEncoding = CompressionAlgorithm.identity
  /// How response messages are compressed, unless a handler opts out.
  var responseEncoding = CompressionAlgorithm.identity

  var responseStarted = false
  var outbound: [UInt8] = []
  var outboundOffset = 0
  var ending: Ending?
  /// `outbound` is a `FramedMessage`'s array, shared with other streams:
  /// once sent it is dropped, not kept as this stream's buffer (clearing a
  /// shared array keeping its capacity would allocate a copy).
  var outboundIsShared = false
  var body = Body.detached
  /// The handler expects a quiet spell: the outbound buffer goes once
  /// everything in it is sent, rather than being kept for the next message.
  var releasesBufferWhenDrained = false
  /// What the request's `content-length` says is still to come, or -1
  /// when it declared none: DATA beyond it, or less of it by the end, makes
  /// the request malformed (RFC 9113 section 8.1.1).
  var declaredBytesLeft: Int64 = -1

  init(id: Int32, maxMessageBytes: Int) {
    self.id = id
    self.deframer = MessageDeframer(maxMessageBytes: maxMessageBytes)
  }

  /// True while a handler may still be told things.
  var callIsLive: Bool {
    guard let call else { return false }
    return !call.isFinished
  }

  var pendingOutboundBytes: Int { outbound.count - outboundOffset }

  /// Lets go of the outbound buffer if everything in it is sent; the next
  /// message allocates anew.
  func releaseDrainedOutbound() {
    guard pendingOutboundBytes == 0 else { return }
    dropOutbound()
  }

  /// Drops the response bytes not sent yet; returns how many there were.
  func discardOutbound() -> Int {
    let dropped = pendingOutboundBytes
    dropOutbound()
    return dropped
  }

  /// Everything queued is sent: a small buffer of the stream's own is kept
  /// for the next message (when `keepingCapacity`), a shared one dropped.
  func outboundSent(keepingCapacity: Bool) {
    guard !outboundIsShared else { return dropOutbound() }
    outbound.removeAll(keepingCapacity: keepingCapacity)
    outboundOffset = 0
  }

  private func dropOutbound() {
    outbound = []
    outboundOffset = 0
    outboundIsShared = false
  }

  /// Queues `framed` with nothing else pending: its bytes become the
  /// outbound buffer as they are; returns the stream's own buffer, if it
  /// had one, for the connection group to keep.
  func adoptShared(_ framed: consuming FramedMessage) -> [UInt8] {
    precondition(pendingOutboundBytes == 0, "a shared message adopted behind queued bytes")
    var own = framed.bytes
    swap(&own, &outbound)
    outboundOffset = 0
    let hadOwn = !outboundIsShared
    outboundIsShared = true
    return hadOwn ? own : []
  }
}
