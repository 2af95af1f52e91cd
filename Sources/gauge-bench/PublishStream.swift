import GRPCClient
import GRPCCore
import GaugeIO
import GaugeWire

/// What one PublishValues stream sent and what its summary said.
struct PublishTally: Sendable {
  var streams = 0
  var sent: UInt64 = 0
  var accepted: UInt64 = 0
  var rejected: UInt64 = 0
  /// When the last summary arrived.
  var finishedAt: UInt64 = 0
  var firstFailure: String?

  mutating func merge(_ other: PublishTally) {
    streams += other.streams
    sent += other.sent
    accepted += other.accepted
    rejected += other.rejected
    finishedAt = max(finishedAt, other.finishedAt)
    if firstFailure == nil { firstFailure = other.firstFailure }
  }
}

/// One PublishValues stream that sends until the window ends, then
/// half-closes and waits for the summary. At full speed it refills
/// whenever HTTP/2 flow control takes more. Paced, it sends each update in
/// a loop turn of its own, at its due time to the microsecond, so that the
/// server sees updates one by one rather than in timer-sized bursts it
/// would rightly coalesce; that sleeps the loop thread, so a paced stream
/// wants a loop to itself. Lives on one loop.
final class PublishStream: ClientCallHandler {
  enum Pace {
    case fullSpeed
    case perSecond(Double)
    /// The rate, in a batch of what is due every millisecond: high rates
    /// without a loop turn per update, for loads that measure the readers.
    case batchedPerSecond(Double)
  }

  /// About one DATA frame of messages per refill.
  private static let batchBytes = 16 << 10

  private let loop: EventLoop
  private let pace: Pace
  private let stampTime: Bool
  private let window: MeasureWindow
  private let done: (PublishTally) -> Void
  private var requests: [TrailingValueMessage]
  private var nextIndex = 0
  private var counter = 0.0
  private var tally = PublishTally(streams: 1)
  private var call: ClientCall?
  private var startedAt: UInt64 = 0
  private var closed = false

  /// Cycles through `requests` (one per widget); with `stampTime` each
  /// value is the monotonic clock at sending, in nanoseconds, otherwise a
  /// counter.
  init(
    channel: GRPCChannel, on loop: EventLoop, requests: [TrailingValueMessage], pace: Pace,
    stampTime: Bool, window: MeasureWindow, done: @escaping (PublishTally) -> Void
  ) {
    precondition(!requests.isEmpty, "a publisher needs at least one widget")
    self.loop = loop
    self.requests = requests
    self.pace = pace
    self.stampTime = stampTime
    self.window = window
    self.done = done
    startedAt = MonotonicNanos.now()
    let call = channel.makeCall(path: BenchRequests.publishValues, handler: self)
    self.call = call
    switch pace {
    case .fullSpeed:
      sendBatch(on: call)
    case .perSecond(let rate):
      tick(rate: rate)
    case .batchedPerSecond(let rate):
      tickBatch(rate: rate)
    }
  }

  func readyForMoreMessages() {
    guard case .fullSpeed = pace, let call, !closed else { return }
    if window.isOver(at: MonotonicNanos.now()) {
      close(call)
    } else {
      sendBatch(on: call)
    }
  }

  func received(message: [UInt8]) {
    let decoded = message.withUnsafeBytes { bytes in
      Result { () throws(WireError) in try WidgetWire.decodePublishSummary(bytes) }
    }
    switch decoded {
    case .success(let summary):
      tally.accepted += summary.accepted
      tally.rejected += summary.rejected
      if tally.firstFailure == nil, let rejection = summary.rejections.first {
        tally.firstFailure = "rejected item \(rejection.index): \(rejection.message)"
      }
    case .failure(let error):
      tally.firstFailure = tally.firstFailure ?? "unreadable summary: \(error.message)"
    }
  }

  func finished(status: GRPCStatus, trailers: Metadata) {
    if status.code != .ok { tally.firstFailure = tally.firstFailure ?? status.description }
    tally.finishedAt = MonotonicNanos.now()
    call = nil
    done(tally)
  }

  private func sendBatch(on call: ClientCall) {
    let count = max(1, Self.batchBytes / (requests[0].bytes.count + 5))
    for _ in 0..<count { sendOne(on: call) }
  }

  private func sendOne(on call: ClientCall) {
    let index = nextIndex
    nextIndex = nextIndex + 1 == requests.count ? 0 : nextIndex + 1
    counter += 1
    requests[index].set(stampTime ? Double(MonotonicNanos.now()) : counter)
    call.send(requests[index].bytes)
    tally.sent += 1
  }

  private func tick(rate: Double) {
    guard let call, !closed else { return }
    let due = startedAt + UInt64(Double(tally.sent + 1) / rate * 1e9)
    if window.isOver(at: due) { return close(call) }
    let now = MonotonicNanos.now()
    if due > now + 2_000_000 {
      // Far off: a timer (millisecond resolution) brings us close first.
      let wait = Duration.nanoseconds(Int64(due - now - 1_000_000))
      loop.schedule(after: wait) { [self] in tick(rate: rate) }
      return
    }
    MonotonicNanos.sleep(until: due)
    sendOne(on: call)
    // The write goes out at the end of this turn; the next update waits
    // for a turn of its own.
    loop.afterTurn { [self] in tick(rate: rate) }
  }

  private func tickBatch(rate: Double) {
    guard let call, !closed else { return }
    let now = MonotonicNanos.now()
    if window.isOver(at: now) { return close(call) }
    let due = UInt64(MonotonicNanos.seconds(now - startedAt) * rate)
    // What flow control holds back is not added to: a server that cannot
    // keep up shows as a lower rate, not as a growing queue here.
    if call.pendingOutboundBytes < Self.batchBytes {
      while tally.sent < due { sendOne(on: call) }
    }
    loop.schedule(after: .milliseconds(1)) { [self] in tickBatch(rate: rate) }
  }

  private func close(_ call: ClientCall) {
    closed = true
    call.closeSend()
  }
}
