import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeWire

/// One `Subscribe` stream: a snapshot (or the changes since a revision),
/// one `synced`, then live changes. Lives on its call's loop. Events are
/// encoded only when HTTP/2 flow control would take them; until then they
/// wait in a `SubscriberQueue`, coalesced per widget, so a reader that stops
/// reading costs memory bounded by the widgets it watches.
///
/// Ten thousand of these may sit idle on one server, so its fields are
/// kept few: what only a start or a minimum interval needs lives elsewhere.
final class SubscribeHandler: RPCHandler, InboxSubscriber {
  private let call: ServerCall
  private let context: SubscriptionContext
  private var inbox: LoopInbox?
  private var queue = SubscriberQueue<SharedEvent>()
  var filter = WidgetFilter()
  var inboxSlot: Int32 = -1
  private var started = false
  /// Only for a `min_interval_ms`.
  private var intervalWake: IntervalWake?
  /// This loop's counts for the call's face, once attached, when the
  /// server keeps metrics.
  private var counts: SubscriptionMetrics.FaceCounts?
  /// Only for `value_deltas`.
  private var deltas: ValueDeltas?

  /// Bytes queued on the stream before the handler stops encoding and waits
  /// for flow control: about one DATA frame's worth, so the latest state is
  /// what gets encoded when the reader catches up.
  private static let lowWaterBytes = 16 << 10

  init(call: ServerCall, context: SubscriptionContext) {
    self.call = call
    self.context = context
  }

  func receive(message: [UInt8]) {
    guard !started else { return }
    started = true
    let query: SubscribeQuery
    switch WireDecoding.decode(message, with: WidgetWire.decodeSubscribeRequest) {
    case .failure(let error):
      return call.finish(
        GRPCStatus(.internal, "could not parse the Subscribe request: \(error.message)"))
    case .success(let decoded):
      query = decoded
    }
    filter = WidgetFilter(ids: query.ids, idPrefix: query.idPrefix)
    let violations = filter.violations()
    guard violations.isEmpty else {
      return call.finish(WidgetError.invalid(violations).grpcStatus)
    }
    switch context.reach.narrow(filter) {
    case .success(let narrowed): filter = narrowed
    case .failure(let error): return call.finish(error.grpcStatus)
    }
    // Attach before reading the store: a change made in between is then
    // both in the initial state and offered live, and the queue drops the
    // live copy by revision; attaching later could miss it.
    if query.valueDeltas { deltas = ValueDeltas() }
    inbox = context.hub.attach(self, call: call)
    counts = SubscriptionMetrics.on(call.loopMetrics, face: call.isWebCall ? .web : .grpc)
    counts?.open += 1
    queue = context.startQueue(
      filter: filter, sinceRevision: query.sinceRevision, includeSnapshot: query.includeSnapshot,
      minIntervalMs: Int64(query.minIntervalMs))
    // A strong capture: the call drops this closure when it finishes or its
    // stream closes, and a weak one would put every event's reference
    // counting of the handler on the slow path.
    call.onOutboundDrained = { [self] in pump() }
    call.sendInitialMetadata(Metadata())
    pump()
  }

  func receiveEnd() {
    if !started {
      call.finish(GRPCStatus(.unimplemented, "Subscribe received no request message"))
    }
  }

  func cancel(_ reason: GRPCStatus) {
    detach()
  }

  private func detach() {
    inbox?.detach(self)
    inbox = nil
    counts?.open -= 1
    counts = nil
    intervalWake?.cancel()
    intervalWake = nil
    call.onOutboundDrained = nil
  }

  /// A subscription never ends by itself, so waiting out the grace period
  /// would only delay the client: it is told to resume elsewhere (or here,
  /// after the restart) from the last `synced` revision it saw.
  func serverShutdownBegan() {
    guard started, !call.isFinished else { return }
    detach()
    call.finish(
      GRPCStatus(.unavailable, "the server is shutting down; resume with since_revision"))
  }

  /// A live change for a watched widget. A reader that keeps up gets it
  /// at once; otherwise it waits in the queue (coalesced) for `pump`.
  func offer(_ event: SharedEvent) -> Bool {
    if call.pendingOutboundBytes < Self.lowWaterBytes, queue.sendsDirect(event) {
      send(event)
      return true
    }
    if queue.offer(event) { counts?.coalesced &+= 1 }
    deltas?.queued(event)
    return false
  }

  private func send(_ event: SharedEvent) {
    if let deltas, deltas.sendsDelta(event) {
      call.send(framed: event.framedDelta)
    } else {
      call.send(framed: event.framed)
    }
    counts?.sent &+= 1
  }

  /// Encodes and sends what is due while the stream takes it.
  func pump() {
    guard !call.isFinished else { return }
    // The clock matters only to a minimum interval; reading it goes through
    // the call, its connection and the loop, on every pump.
    let nowMs = queue.minIntervalMs > 0 ? MonotonicClock.milliseconds(call.now) : 0
    while call.pendingOutboundBytes < Self.lowWaterBytes, let output = queue.next(nowMs: nowMs) {
      switch output {
      case .event(let event):
        send(event)
      case .synced(let revision):
        deltas?.synced()
        call.send(message: WidgetWire.encodeWidgetEvent(.synced(revision: revision)))
        // The snapshot's burst is over; live changes may be rare.
        call.releaseOutboundBuffer()
      case .reset(let revision):
        deltas?.reset()
        call.send(message: WidgetWire.encodeWidgetEvent(.reset(revision: revision)))
      }
    }
    // Stopped by a busy stream, events may wait for it to drain; stopped by
    // an empty queue, the next event comes through `offer` and a pump, or
    // the interval's timer.
    call.holdsBack = call.pendingOutboundBytes >= Self.lowWaterBytes
    scheduleWake(nowMs: nowMs)
  }

  /// Events held back by `min_interval_ms` need a timer to go out.
  private func scheduleWake(nowMs: Int64) {
    // Checked here, before any closure is made: this runs on every pump of
    // every subscriber, and only an interval needs a timer.
    guard queue.minIntervalMs > 0 else { return }
    let call = self.call
    IntervalWake.schedule(
      &intervalWake, for: queue, nowMs: nowMs, using: { call.schedule(after: $0, $1) }
    ) { [weak self] in self?.pump() }
  }
}
