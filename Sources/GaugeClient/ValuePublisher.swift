import GRPCClient
import GaugeWire

/// Values for many widgets on one PublishValues stream: `send` is cheap
/// (a copy of the widget's encoded update with the new value, appended to
/// a queue) and suspends only when `window` values are waiting for the
/// stream's HTTP/2 flow control; `finish()` ends the stream and returns
/// the server's report, with the values it refused.
///
/// Safe to share between tasks; values go out in the order their `send`
/// calls returned.
public final class ValuePublisher: Sendable {
  /// Values that may wait for the stream before `send` suspends.
  public static let window = 1024

  private let keeper: ConnectionKeeper
  private let callState: PublisherCallState
  private let queue = PublisherQueue(window: ValuePublisher.window)

  init(keeper: ConnectionKeeper, timeout: Duration?) {
    self.keeper = keeper
    let queue = self.queue
    let callState = PublisherCallState(
      onCredits: { queue.returnCredits($0) },
      onEnd: {
        queue.fail($0 ?? GaugeError(code: .failedPrecondition, message: "the stream has ended"))
      })
    self.callState = callState
    keeper.loop.execute {
      switch keeper.makeCall(
        path: GaugeClient.servicePath + "PublishValues", timeout: timeout, handler: callState)
      {
      case .failure(let error): callState.end(.failure(error))
      case .success(let call): callState.call = call
      }
    }
  }

  deinit {
    let callState = self.callState
    keeper.loop.execute { callState.call?.cancel() }
  }

  /// Queues `value` for widget `id`, first waiting while the stream's
  /// window is full.
  ///
  /// - Throws: the stream's failure once it ended early (the server is
  ///   gone, the call's timeout ran out), `failedPrecondition` after
  ///   `finish()`, `cancelled` when the task is cancelled while waiting.
  nonisolated(nonsending) public func send(id: String, value: Double) async throws(GaugeError) {
    while true {
      switch queue.offer(id: id, value: value) {
      case .queued:
        return
      case .queuedNeedsDrain:
        let queue = self.queue
        let callState = self.callState
        keeper.loop.execute { Self.drain(queue, callState) }
        return
      case .failed(let error):
        throw error
      case .full:
        try await queue.waitForCredit()
      }
    }
  }

  /// Hands the queued values to the call, on the loop: one hop per batch,
  /// not per value.
  private static func drain(_ queue: PublisherQueue, _ callState: PublisherCallState) {
    let batch = queue.takeOutbox()
    guard batch.count > 0, let call = callState.call, !call.isFinished else { return }
    call.send(framedMessages: batch.framed)
    callState.unconfirmed += batch.count
  }

  /// Ends the stream once every queued value is out and returns the
  /// server's report.
  ///
  /// - Throws: the stream's failure, when it ended without a report.
  public func finish() async throws(GaugeError) -> PublishReport {
    queue.beginFinishing()
    let queue = self.queue
    let callState = self.callState
    let outcome = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<[UInt8], GaugeError>, Never>) in
      keeper.loop.execute {
        Self.drain(queue, callState)
        callState.call?.closeSend()
        callState.whenEnded { continuation.resume(returning: $0) }
      }
    }
    let path = GaugeClient.servicePath + "PublishValues"
    let summary = try GaugeClient.decode(try outcome.get(), path: path) { raw throws(WireError) in
      try WidgetWire.decodePublishSummary(raw)
    }
    return PublishReport(
      accepted: summary.accepted, rejected: summary.rejected,
      rejections: summary.rejections.map {
        PublishReport.Rejection(
          index: $0.index, id: $0.id, code: GaugeError.Code(rawValue: $0.code) ?? .unknown,
          message: $0.message)
      })
  }

  /// Ends the stream now, without a report: the server keeps what it
  /// already stored.
  public func cancel() {
    let callState = self.callState
    keeper.loop.execute { callState.call?.cancel() }
  }
}

extension GaugeClient {
  /// A publisher on a new PublishValues stream. `timeout` bounds the
  /// stream's whole life, nil for none.
  public func publisher(timeout: Duration? = nil) -> ValuePublisher {
    ValuePublisher(keeper: keeper, timeout: timeout)
  }
}
