import GRPCCore

/// The connection's state for one HTTP/2 stream carrying one client call.
final class ClientStream {
  let id: Int32
  let call: ClientCall
  let callProtocol: CallProtocol
  /// `callProtocol.endFlag`, read for every message.
  let endFlag: UInt8
  var handler: (any ClientCallHandler)?
  var deframer: MessageDeframer
  var deadlineTimer: ScheduledWork?

  var headers = ResponseFields()
  var trailers = ResponseFields()
  /// The response headers have ended; further fields are trailers.
  var headersDone = false
  /// A header block grew over the limit; the stream is being reset.
  var headerOverflow = false
  /// gRPC-Web and Connect: the body's last frame, from its flags byte on,
  /// once it has begun; the status is read from it at END_STREAM.
  var endFrame: [UInt8]?

  var outbound: [UInt8] = []
  var outboundOffset = 0
  /// The caller will send nothing more: END_STREAM follows the last byte.
  var sendClosed = false
  /// The data source said "pending"; it needs `resumeData` to wake.
  var dataSleeping = false

  init(
    id: Int32, call: ClientCall, callProtocol: CallProtocol, handler: any ClientCallHandler,
    maxMessageBytes: Int
  ) {
    self.id = id
    self.call = call
    self.callProtocol = callProtocol
    self.endFlag = callProtocol.endFlag
    self.handler = handler
    self.deframer = MessageDeframer(maxMessageBytes: maxMessageBytes)
  }

  var pendingOutboundBytes: Int { outbound.count - outboundOffset }
}
