/// The server's state for one HTTP/2 stream carrying one gRPC call.
final class ServerStream {
  enum Ending {
    /// Trailers close the stream after the last DATA frame.
    case trailers([HeaderField])
    /// The last DATA frame carries END_STREAM (plain HTTP answers).
    case endStream
  }

  let id: Int32
  var head = RequestHead()
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
  /// The data source said "pending"; it needs `resumeData` to wake.
  var dataSleeping = false
  /// How to reset the stream if the client is still sending when we end it.
  var resetCodeAfterEnd: UInt32 = 0

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

  /// Drops the response bytes not sent yet; returns how many there were.
  func discardOutbound() -> Int {
    let dropped = pendingOutboundBytes
    outbound = []
    outboundOffset = 0
    return dropped
  }
}
