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
  /// and a new snapshot, which the sequence passes on. Events wait for
  /// the reader without bound while it is slower than the server.
  public func subscribe(
    ids: [String] = [], prefix: String = "", minInterval: Duration = .zero
  ) -> WidgetSubscription {
    let buffer = SubscriptionBuffer()
    guard (try? checkOpen()) != nil else {
      buffer.finish(failure: GaugeError.closed)
      return WidgetSubscription(reader: SubscriptionReader(buffer: buffer, onStop: {}))
    }
    let milliseconds =
      minInterval.components.seconds * 1000
      + minInterval.components.attoseconds / 1_000_000_000_000_000
    let query = SubscribeQuery(
      ids: ids, idPrefix: prefix, includeSnapshot: true, sinceRevision: nil,
      minIntervalMs: UInt32(clamping: milliseconds))
    let keeper = self.keeper
    let driver = SubscriptionDriver(keeper: keeper, query: query, buffer: buffer)
    keeper.loop.execute {
      keeper.track(driver)
      driver.connect()
    }
    return WidgetSubscription(
      reader: SubscriptionReader(buffer: buffer) { keeper.loop.execute { driver.end() } })
  }
}
