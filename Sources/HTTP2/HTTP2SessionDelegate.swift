/// What the nghttp2 session reports upward. Called from inside nghttp2
/// callbacks, so implementations may submit frames but must not feed input
/// back into the same session. A client session reports response headers
/// through `streamHeadersEnded` and never calls `streamBegan`.
package protocol HTTP2SessionDelegate: AnyObject {
  func streamBegan(_ streamID: Int32)
  /// false rejects the header (and resets the stream), e.g. when the header
  /// list grew over its cap.
  func streamHeader(_ streamID: Int32, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)
    -> Bool
  func streamHeadersEnded(_ streamID: Int32, endStream: Bool)
  /// A header block after the first (the peer's trailers) ended.
  func streamTrailersEnded(_ streamID: Int32, endStream: Bool)
  func streamData(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer)
  func streamEnded(_ streamID: Int32)
  func streamClosed(_ streamID: Int32, errorCode: UInt32)
  /// Fills `buffer` with the stream's next outbound bytes.
  func streamOutbound(_ streamID: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> HTTP2OutboundChunk
  /// A frame that ends the stream from our side left the session.
  func streamEndSent(_ streamID: Int32)
  /// A HEADERS frame left the session. DATA is not reported frame by frame:
  /// what `streamOutbound` hands out is sent in the same `drainOutput`.
  func headersSent()
  /// The peer acknowledged our SETTINGS: stream windows changed before
  /// it were moved by the difference to the initial window we announced.
  func settingsAcknowledged()
  /// The peer sent a PING (nghttp2 answers it).
  func pingReceived()
  /// The peer answered one of our PINGs.
  func pingAcknowledged(payload: UInt64)
}

extension HTTP2SessionDelegate {
  /// A client session keeps nghttp2's HTTP checks, which reset a stream
  /// whose trailers do not end it: what is left to report is the end.
  package func streamTrailersEnded(_ streamID: Int32, endStream: Bool) {
    if endStream { streamEnded(streamID) }
  }
  // A client has no use for keepalive policing or per-frame accounting.
  package func headersSent() {}
  package func pingReceived() {}
  package func settingsAcknowledged() {}
  package func pingAcknowledged(payload: UInt64) {}
}

package enum HTTP2OutboundChunk {
  /// `count` bytes written, more to come later.
  case bytes(Int)
  /// Nothing yet: the stream sleeps until `resumeData`.
  case pending
  /// The last `count` bytes queued (more than 0): the source detaches
  /// after this frame, the stream stays open, and what comes later is sent
  /// through a new `attachData`. An idle stream then holds no DATA source
  /// in nghttp2.
  case paused(Int)
  /// The last `count` bytes; the stream ends with END_STREAM on this DATA
  /// frame, or with a trailer HEADERS frame when `trailers` is non-nil.
  case end(count: Int, trailers: PackedHeaders?)
}
