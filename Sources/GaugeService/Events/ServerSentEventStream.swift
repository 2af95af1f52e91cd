import GRPCCore
import GRPCTransport
import GaugeDomain

/// One `GET /widgets/events` stream: the snapshot (or the changes since
/// `Last-Event-ID`), `synced`, then live changes, as Server-Sent Events.
/// The same subscription core as gRPC's Subscribe: the loop's inbox offers
/// changes, a `SubscriberQueue` coalesces them per widget while the reader
/// is behind, so a slow reader costs memory bounded by what it watches.
///
/// An event carries `id:` (its revision) only when nothing before it is
/// still owed: an `EventSource` that reconnects sends the last id it saw as
/// `Last-Event-ID`, and resuming from it must miss nothing. Snapshot events
/// and events sent out of revision order by coalescing carry none.
final class ServerSentEventStream: InboxSubscriber {
  private let exchange: any HTTPExchange
  private let context: SubscriptionContext
  private var inbox: LoopInbox?
  private var queue = SubscriberQueue<SharedEvent>()
  var filter: WidgetFilter
  var inboxSlot: Int32 = -1
  /// False until `synced` went out (again after a reset).
  private var live = false
  private var keepaliveTimer: ScheduledWork?
  private var intervalWake: IntervalWake?
  private var counts: SubscriptionMetrics.FaceCounts?
  /// Only for `deltas=1`.
  private var deltas: ValueDeltas?
  /// Ends the stream when its token is revoked; nil without a token.
  var revocationWatch: RevocationWatch?
  /// Its place among its token's subscriptions; nil without a token.
  var subscriptionSlot: SubscriptionSlot?

  /// About one socket write's worth: past it, events wait (coalesced) for
  /// the socket to drain.
  private static let lowWaterBytes = 16 << 10
  static let keepaliveInterval = Duration.seconds(15)
  static let responseHeaders: HTTPFields = [
    "content-type": "text/event-stream", "cache-control": "no-store",
    // Proxies that buffer responses (nginx) would hold events back.
    "x-accel-buffering": "no",
  ]

  init(exchange: any HTTPExchange, context: SubscriptionContext, filter: WidgetFilter) {
    self.exchange = exchange
    self.context = context
    self.filter = filter
  }

  func start(sinceRevision: UInt64?, minIntervalMs: Int64, valueDeltas: Bool = false) {
    if valueDeltas { deltas = ValueDeltas() }
    inbox = context.hub.attach(self, executor: exchange.scheduler.loopExecutor)
    queue = context.startQueue(
      filter: filter, sinceRevision: sinceRevision, includeSnapshot: true,
      minIntervalMs: minIntervalMs)
    exchange.startStream(status: 200, headers: Self.responseHeaders)
    counts = SubscriptionMetrics.on(exchange.metrics, face: .events)
    counts?.open += 1
    // Strong captures: the exchange drops both when it ends.
    exchange.onOutboundDrained = { [self] in pump() }
    exchange.onCancel = { [self] in detach() }
    scheduleKeepalive()
    pump()
  }

  /// Ends the stream cleanly (its token was revoked): an `EventSource`
  /// reconnects and is refused.
  func end() {
    guard !exchange.isFinished else { return }
    detach()
    exchange.finish()
  }

  private func detach() {
    revocationWatch = nil
    subscriptionSlot = nil
    inbox?.detach(self)
    inbox = nil
    counts?.open -= 1
    counts = nil
    keepaliveTimer?.cancel()
    keepaliveTimer = nil
    intervalWake?.cancel()
    intervalWake = nil
    exchange.onOutboundDrained = nil
    exchange.onCancel = nil
  }

  func offer(_ event: SharedEvent) -> Bool {
    guard !exchange.isFinished else { return true }
    if exchange.pendingOutboundBytes < Self.lowWaterBytes, queue.sendsDirect(event) {
      send(event, caughtUp: true)
      return true
    }
    if queue.offer(event) { counts?.coalesced &+= 1 }
    deltas?.queued(event)
    return false
  }

  func pump() {
    guard !exchange.isFinished else { return }
    let nowMs = queue.minIntervalMs > 0 ? MonotonicClock.milliseconds(exchange.scheduler.now) : 0
    while exchange.pendingOutboundBytes < Self.lowWaterBytes, let output = queue.next(nowMs: nowMs)
    {
      switch output {
      case .event(let event):
        send(event, caughtUp: live && queue.isEmpty)
      case .synced(let revision):
        live = true
        deltas?.synced()
        exchange.write(ServerSentEventEncoding.synced(revision: revision))
      case .reset(let revision):
        live = false
        deltas?.reset()
        exchange.write(ServerSentEventEncoding.reset(revision: revision))
      }
    }
    scheduleWake(nowMs: nowMs)
  }

  private func send(_ event: SharedEvent, caughtUp: Bool) {
    counts?.sent &+= 1
    let delta = deltas?.sendsDelta(event) ?? false
    let encoded = event.encoded(by: ServerSentEventEncoding.self, delta: delta)
    exchange.write(caughtUp ? ServerSentEventEncoding.idLine(event.revision) + encoded : encoded)
  }

  private func scheduleKeepalive() {
    keepaliveTimer = exchange.scheduler.schedule(after: Self.keepaliveInterval) { [weak self] in
      guard let self, !self.exchange.isFinished else { return }
      self.exchange.write(ServerSentEventEncoding.keepalive)
      self.scheduleKeepalive()
    }
  }

  private func scheduleWake(nowMs: Int64) {
    // Checked here, before any closure is made: this runs on every pump of
    // every subscriber, and only an interval needs a timer.
    guard queue.minIntervalMs > 0 else { return }
    let scheduler = exchange.scheduler
    IntervalWake.schedule(
      &intervalWake, for: queue, nowMs: nowMs, using: { scheduler.schedule(after: $0, $1) }
    ) { [weak self] in self?.pump() }
  }
}
