import GRPCCore
import GRPCTransport

/// Sends StreamingOutputCallResponses for a queue of ResponseParameters, in
/// order: each after its `interval_us` (counted from the previous response),
/// compressed as asked, and only while little is queued on the stream, so a
/// client asking for many large responses is served as fast as it reads,
/// not buffered whole.
final class ResponseStream {
  private let call: ServerCall
  private var queue: [ResponseParameters] = []
  private var next = 0
  private var timer: ScheduledWork?
  /// The head of the queue has waited its interval.
  private var waited = false
  private var stopped = false
  /// Runs once the queue is empty (again).
  var whenIdle: (() -> Void)?

  /// Response bytes allowed to wait for flow control before producing more.
  private static let highWater = 256 << 10

  init(call: ServerCall) {
    self.call = call
    call.onOutboundDrained = { [weak self] in self?.pump() }
  }

  var isIdle: Bool { next == queue.count && timer == nil }

  func append(_ parameters: [ResponseParameters]) {
    queue += parameters
    pump()
  }

  func stop() {
    stopped = true
    timer?.cancel()
    timer = nil
    call.onOutboundDrained = nil
    whenIdle = nil
  }

  private func pump() {
    while !stopped, timer == nil, next < queue.count {
      let parameters = queue[next]
      if parameters.intervalMicroseconds > 0, !waited {
        // nil once the connection is gone: nothing more will be sent.
        guard
          let scheduled = call.schedule(
            after: .microseconds(parameters.intervalMicroseconds),
            { [weak self] in
              guard let self else { return }
              timer = nil
              waited = true
              pump()
            })
        else { return stop() }
        timer = scheduled
        return
      }
      guard call.pendingOutboundBytes < Self.highWater else { return }
      waited = false
      next += 1
      call.send(
        message: InteropWire.encodeStreamingOutputCallResponse(
          payloadSize: Int(parameters.size)),
        compress: parameters.compressed == true)
    }
    if !stopped, isIdle {
      queue.removeAll(keepingCapacity: true)
      next = 0
      whenIdle?()
    }
  }
}
