import CNGHTTP2
import GRPCCore

/// What one connection may cost the server: calls whose handlers still
/// work, bytes queued for a peer that does not read, partly received
/// request messages. Over a stream's share the stream goes; over the
/// connection's, the connection does, and no other peer pays for it.
extension GRPCServerConnection {
  var bufferedBytes: Int { queuedResponseBytes + partialRequestBytes }

  /// Whether a new call may start. Streams the peer resets stop counting
  /// only once their handlers let go of the call, so resetting streams
  /// right after opening them cannot pile up work.
  func admitsCall() -> Bool {
    callsInFlight.current < group.configuration.callsInFlightLimit
  }

  /// Whether `count` more response bytes fit on `stream` and on the
  /// connection. When they do not, the stream is reset (its own share) or
  /// the connection ends (the whole), and the bytes must be dropped.
  func admitsResponse(of count: Int, on stream: ServerStream) -> Bool {
    let onStream = stream.pendingOutboundBytes + count
    if onStream > group.configuration.maxStreamBufferBytes {
      giveUp(
        stream,
        GRPCStatus(
          .resourceExhausted,
          "the client is not reading: \(onStream) response bytes would be queued on the stream,"
            + " over the limit of \(group.configuration.maxStreamBufferBytes)"))
      return false
    }
    if bufferedBytes + count > group.configuration.maxConnectionBufferBytes {
      overflow()
      return false
    }
    return true
  }

  /// Request bytes just buffered; false when they took the connection over.
  func admitsRequestBytes(growth: Int) -> Bool {
    guard bufferedBytes + growth > group.configuration.maxConnectionBufferBytes else { return true }
    overflow()
    return false
  }

  /// Resets `stream` with ENHANCE_YOUR_CALM, which stock clients report as
  /// RESOURCE_EXHAUSTED, and tells its handler why.
  private func giveUp(_ stream: ServerStream, _ status: GRPCStatus) {
    queuedResponseBytes -= stream.discardOutbound()
    session.resetStream(streamID: stream.id, errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
    if stream.callIsLive {
      stream.call?.markFinished()
      stream.handler?.cancel(status)
    }
    outputReady()
  }

  private func overflow() {
    let reason =
      "more than \(group.configuration.maxConnectionBufferBytes) bytes buffered for the peer"
    session.terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue, reason: reason)
    logRefusal(reason)
    outputReady()
  }
}
