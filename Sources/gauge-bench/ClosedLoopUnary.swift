import GRPCClient
import GRPCCore
import GaugeIO

/// Unary calls in a closed loop: each connection keeps `inFlight` calls
/// open, and every call that ends starts the next one, until the requests
/// run out or the window ends. Calls that complete inside the window are
/// counted and timed (all of them when the window has no end); the rest are
/// warm-up and drain. Lives on one loop.
final class ClosedLoopUnary {
  private let path: String
  private let window: MeasureWindow
  private let nextRequest: () -> [UInt8]?
  private let done: (UnaryTally) -> Void
  private var tally = UnaryTally()
  private var openSlots = 0

  /// `nextRequest` returns nil when there is nothing more to send.
  init(
    channels: [GRPCChannel], inFlight: Int, path: String, window: MeasureWindow,
    nextRequest: @escaping () -> [UInt8]?, done: @escaping (UnaryTally) -> Void
  ) {
    self.path = path
    self.window = window
    self.nextRequest = nextRequest
    self.done = done
    for channel in channels {
      for _ in 0..<inFlight {
        openSlots += 1
        start(UnarySlot(owner: self, channel: channel))
      }
    }
    if openSlots == 0 { done(tally) }
  }

  fileprivate func start(_ slot: UnarySlot) {
    guard !window.isOver(at: MonotonicNanos.now()), !slot.channel.isClosed,
      let request = nextRequest()
    else {
      openSlots -= 1
      if openSlots == 0 { done(tally) }
      return
    }
    slot.startedAt = MonotonicNanos.now()
    slot.gotMessage = false
    let call = slot.channel.makeCall(path: path, handler: slot)
    call.send(request)
    call.closeSend()
  }

  fileprivate func finished(_ slot: UnarySlot, _ status: GRPCStatus) {
    let now = MonotonicNanos.now()
    let ok = status.code == .ok && slot.gotMessage
    if window.end == .max || window.contains(now) {
      if ok {
        tally.completed += 1
        tally.latency.record(now - slot.startedAt)
      } else {
        tally.failed += 1
        if tally.firstFailure == nil { tally.firstFailure = status.description }
      }
    }
    start(slot)
  }
}

/// One of the calls a connection keeps open; reused for the next call once
/// this one finished. The open calls keep their driver alive.
private final class UnarySlot: ClientCallHandler {
  let owner: ClosedLoopUnary
  let channel: GRPCChannel
  var startedAt: UInt64 = 0
  var gotMessage = false

  init(owner: ClosedLoopUnary, channel: GRPCChannel) {
    self.owner = owner
    self.channel = channel
  }

  func received(message: [UInt8]) {
    gotMessage = true
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    owner.finished(self, status)
  }
}
