import GaugeWire

extension GaugeClient {
  /// Follows widgets: a snapshot of those that match, `synced`, then each
  /// change as it happens. Give `ids`, or a `prefix`, or neither for every
  /// widget. With `minInterval` the server sends at most one change per
  /// widget per interval (the latest).
  ///
  /// The subscription reconnects by itself when the connection or the
  /// server is lost, with jittered back-off, and resumes from the last
  /// `synced` revision; when the server cannot resume it sends `reset`
  /// and a new snapshot, which the sequence passes on. Events are
  /// buffered without bound while the consumer is slower than the server.
  public func subscribe(
    ids: [String] = [], prefix: String = "", minInterval: Duration = .zero
  ) -> WidgetSubscription {
    let (events, continuation) = AsyncThrowingStream.makeStream(
      of: SubscriptionEvent.self, throwing: (any Error).self)
    guard (try? checkOpen()) != nil else {
      continuation.finish(throwing: GaugeError.closed)
      return WidgetSubscription(events: events)
    }
    let milliseconds =
      minInterval.components.seconds * 1000
      + minInterval.components.attoseconds / 1_000_000_000_000_000
    let query = SubscribeQuery(
      ids: ids, idPrefix: prefix, includeSnapshot: true, sinceRevision: nil,
      minIntervalMs: UInt32(clamping: milliseconds))
    let keeper = self.keeper
    let driver = SubscriptionDriver(keeper: keeper, query: query, continuation: continuation)
    continuation.onTermination = { _ in keeper.loop.execute { driver.end() } }
    keeper.loop.execute {
      keeper.track(driver)
      driver.connect()
    }
    return WidgetSubscription(events: events)
  }
}
