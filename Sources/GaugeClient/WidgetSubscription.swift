/// The events of `GaugeClient.subscribe(ids:prefix:minInterval:)`: an
/// async sequence that stays connected by itself. Read it from one task;
/// cancelling that task (or dropping the sequence) cancels the stream on
/// the server at once.
///
/// It ends with an error only when another try could not help (the
/// request is invalid, the token is refused); it ends normally when the
/// client closes.
public struct WidgetSubscription: AsyncSequence, Sendable {
  /// One event.
  public typealias Element = SubscriptionEvent
  /// The permanent failure that ended it.
  public typealias Failure = GaugeError

  let reader: SubscriptionReader

  /// The one iterator: a subscription is read once.
  public func makeAsyncIterator() -> Iterator {
    Iterator(reader: reader)
  }

  /// Reads the events as they arrive.
  public struct Iterator: AsyncIteratorProtocol {
    /// One event.
    public typealias Element = SubscriptionEvent
    /// The permanent failure that ended the subscription.
    public typealias Failure = GaugeError

    private let reader: SubscriptionReader
    /// The events taken from the buffer and not yet returned.
    private var batch: [SubscriptionEvent] = []
    private var nextIndex = 0

    init(reader: SubscriptionReader) {
      self.reader = reader
    }

    /// The next event; nil once the subscription ended (or the task was
    /// cancelled).
    public mutating func next() async throws(GaugeError) -> SubscriptionEvent? {
      try await next(isolation: nil)
    }

    /// The same, for callers on an actor: waits without leaving it.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(GaugeError)
      -> SubscriptionEvent?
    {
      if nextIndex < batch.count, !Task.isCancelled {
        defer { nextIndex += 1 }
        return batch[nextIndex]
      }
      batch = []
      nextIndex = 0
      switch await reader.buffer.take(isolation: actor) {
      case .events(let events):
        batch = events
        nextIndex = 1
        return events[0]
      case .finished:
        reader.stop()
        return nil
      case .failed(let error):
        reader.stop()
        throw error
      }
    }
  }
}
