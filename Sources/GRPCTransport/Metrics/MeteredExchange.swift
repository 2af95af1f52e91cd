import GRPCCore

/// An exchange that counts its answer in `http_requests_total` and
/// `http_request_duration_seconds` once it is over: a whole response when
/// it goes, a stream when it finishes or is cancelled. A request the peer
/// leaves before any answer counts as 499, as proxies log it.
public final class MeteredExchange: HTTPExchange {
  private let inner: any HTTPExchange
  private let counters: HTTPRouteMetrics
  private let startedAt = ContinuousClock.now
  private var streamStatus: Int?
  /// Body bytes handed to the session, for the access log.
  private var bytes = 0
  private var counted = false
  /// The face's own cancel callback: the inner exchange's slot is taken by
  /// this one's, which counts first.
  private var faceOnCancel: (() -> Void)?

  /// Wraps `exchange` when its loop keeps metrics; otherwise returns it.
  public static func wrap(_ exchange: any HTTPExchange, face: String, route: String)
    -> any HTTPExchange
  {
    guard let metrics = exchange.metrics else { return exchange }
    return MeteredExchange(exchange, counters: metrics.route(face: face, route: route))
  }

  init(_ inner: any HTTPExchange, counters: HTTPRouteMetrics) {
    self.inner = inner
    self.counters = counters
    // Weak: the inner exchange clears its callbacks when it ends, but a
    // face that never answers must not be kept alive by its own request.
    inner.onCancel = { [weak self] in self?.cancelled() }
  }

  public func respond(_ response: HTTPResponse) {
    let wasFinished = inner.isFinished
    inner.respond(response)
    if !wasFinished {
      bytes += response.body.count
      count(response.status)
    }
  }

  public func startStream(status: Int, headers: HTTPFields) {
    if !inner.isFinished, streamStatus == nil { streamStatus = status }
    inner.startStream(status: status, headers: headers)
  }

  public func write(_ bytes: [UInt8]) {
    self.bytes += bytes.count
    inner.write(bytes)
  }

  public func finish() {
    inner.finish()
    if let streamStatus { count(streamStatus) }
  }

  public var pendingOutboundBytes: Int { inner.pendingOutboundBytes }
  public var scheduler: any CallScheduler { inner.scheduler }
  public var isFinished: Bool { inner.isFinished }
  public var metrics: LoopMetrics? { inner.metrics }
  public var peer: String? { inner.peer }
  public var credentialMemo: CredentialMemo? { inner.credentialMemo }

  public var onOutboundDrained: (() -> Void)? {
    get { inner.onOutboundDrained }
    set { inner.onOutboundDrained = newValue }
  }

  public var onCancel: (() -> Void)? {
    get { faceOnCancel }
    set { faceOnCancel = newValue }
  }

  private func cancelled() {
    count(streamStatus ?? 499)
    let callback = faceOnCancel
    faceOnCancel = nil
    callback?()
  }

  private func count(_ status: Int) {
    guard !counted else { return }
    counted = true
    counters.completed(
      status: status, after: ContinuousClock.now - startedAt, bytes: bytes, peer: inner.peer)
  }
}
