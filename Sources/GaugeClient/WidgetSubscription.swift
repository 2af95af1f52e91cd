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

  let events: AsyncThrowingStream<SubscriptionEvent, any Error>

  /// The one iterator: a subscription is read once.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: events.makeAsyncIterator())
  }

  /// Reads the events as they arrive.
  public struct Iterator: AsyncIteratorProtocol {
    /// One event.
    public typealias Element = SubscriptionEvent
    /// The permanent failure that ended the subscription.
    public typealias Failure = GaugeError

    private var base: AsyncThrowingStream<SubscriptionEvent, any Error>.AsyncIterator

    init(base: AsyncThrowingStream<SubscriptionEvent, any Error>.AsyncIterator) {
      self.base = base
    }

    /// The next event; nil once the subscription ended (or the task was
    /// cancelled).
    public mutating func next() async throws(GaugeError) -> SubscriptionEvent? {
      do {
        return try await base.next()
      } catch let error as GaugeError {
        throw error
      } catch {
        throw GaugeError(code: .unknown, message: "\(error)")
      }
    }

    /// The same, for callers on an actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(GaugeError)
      -> SubscriptionEvent?
    {
      do {
        return try await base.next(isolation: actor)
      } catch let error as GaugeError {
        throw error
      } catch {
        throw GaugeError(code: .unknown, message: "\(error)")
      }
    }
  }
}
