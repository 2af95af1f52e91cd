import GRPCClient
import GRPCCore
import GaugeIO
import GaugeWire

/// One subscription at work on the client's loop: a Subscribe call, and
/// after it is lost another, from the revision of the last `synced`
/// (resuming from it misses nothing: the server replays what changed
/// since), after a jittered back-off. Used on the loop thread only.
// @unchecked Sendable: carried into `loop.execute` and the stream's
// termination handler, used only on the loop.
final class SubscriptionDriver: @unchecked Sendable {
  private let keeper: ConnectionKeeper
  private var query: SubscribeQuery
  private let buffer: SubscriptionBuffer
  private var call: ClientCall?
  private var retryTimer: TimerHandle?
  private var backoff = ReconnectBackoff()
  /// Upserts are part of a snapshot until the next `synced`.
  private var inSnapshot = true
  private var ended = false

  static let path = "/gauge.v1.WidgetService/Subscribe"

  init(
    keeper: ConnectionKeeper, query: SubscribeQuery, buffer: SubscriptionBuffer
  ) {
    self.keeper = keeper
    self.query = query
    self.buffer = buffer
  }

  func connect() {
    retryTimer = nil
    guard !ended else { return }
    let handler = CallbackCallHandler(
      onMessage: { [weak self] bytes in self?.received(bytes) },
      onFinish: { [weak self] status, _ in self?.callEnded(GaugeError(status: status)) })
    switch keeper.makeCall(path: Self.path, timeout: nil, handler: handler) {
    case .failure(let error):
      callEnded(error)
    case .success(let call):
      self.call = call
      call.send(WidgetWire.encodeSubscribeRequest(query))
      call.closeSend()
    }
  }

  private func received(_ bytes: [UInt8]) {
    guard !ended else { return }
    let decoded = bytes.withUnsafeBytes { raw in
      Result { () throws(WireError) in try WidgetWire.decodeWidgetEvent(raw) }
    }
    // An event this build cannot read (from a newer server) is skipped.
    guard case .success(let event) = decoded else { return }
    switch event {
    case .upsert(let widget):
      buffer.append(inSnapshot ? .snapshot(widget) : .upsert(widget))
    case .removed(let id, let revision):
      buffer.append(.removed(id: id, revision: revision))
    case .value:
      // Sent only to subscriptions that ask for value deltas; this one
      // does not.
      return
    case .reset(let revision):
      inSnapshot = true
      buffer.append(.reset(revision: revision))
    case .synced(let revision):
      inSnapshot = false
      query.sinceRevision = revision
      backoff.reset()
      buffer.append(.synced(revision: revision))
    }
  }

  private func callEnded(_ error: GaugeError) {
    call = nil
    guard !ended else { return }
    if Self.isPermanent(error.code) {
      finish(throwing: error)
      return
    }
    // A resumed stream replays changes, not a snapshot.
    inSnapshot = query.sinceRevision == nil
    retryTimer = keeper.loop.schedule(after: backoff.next()) { [weak self] in self?.connect() }
  }

  /// Ends the subscription from the client's side: the consumer stopped
  /// reading (or the client closed). The stream is reset at once.
  func end() {
    guard !ended else { return }
    ended = true
    if let retryTimer { keeper.loop.cancel(retryTimer) }
    retryTimer = nil
    call?.cancel()
    call = nil
    buffer.finish(failure: nil)
    keeper.forget(self)
  }

  private func finish(throwing error: GaugeError) {
    ended = true
    buffer.finish(failure: error)
    keeper.forget(self)
  }

  /// Failures that another try would only repeat: the request itself is
  /// wrong or not allowed.
  static func isPermanent(_ code: GaugeError.Code) -> Bool {
    switch code {
    case .invalidArgument, .notFound, .unimplemented, .unauthenticated, .permissionDenied,
      .failedPrecondition, .outOfRange:
      true
    default:
      false
    }
  }
}
