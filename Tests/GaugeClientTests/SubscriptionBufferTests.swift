import Synchronization
import Testing

@testable import GaugeClient

/// The hand-off between a subscription's loop and its reader, without a
/// server.
@Suite struct SubscriptionBufferTests {
  @Test func theReaderGetsEverythingWaitingInOrder() async {
    let buffer = SubscriptionBuffer()
    buffer.append(.synced(revision: 1))
    buffer.append(.removed(id: "a", revision: 2))
    guard case .events(let events) = await buffer.take(isolation: nil) else {
      Issue.record("expected events")
      return
    }
    #expect(events == [.synced(revision: 1), .removed(id: "a", revision: 2)])
  }

  @Test func aWaitingReaderWakesForTheNextEvent() async {
    let buffer = SubscriptionBuffer()
    let reader = Task { await buffer.take(isolation: nil) }
    // Whether the reader waits already or not, it gets the event.
    buffer.append(.synced(revision: 7))
    guard case .events(let events) = await reader.value else {
      Issue.record("expected events")
      return
    }
    #expect(events == [.synced(revision: 7)])
  }

  @Test func eventsBeforeAFailureComeFirstAndTheFailureOnce() async {
    let buffer = SubscriptionBuffer()
    buffer.append(.synced(revision: 1))
    buffer.finish(failure: GaugeError(code: .invalidArgument, message: "ids"))
    #expect(buffer.append(.synced(revision: 2)) == false)
    guard case .events(let events) = await buffer.take(isolation: nil) else {
      Issue.record("expected events")
      return
    }
    #expect(events == [.synced(revision: 1)])
    guard case .failed(let error) = await buffer.take(isolation: nil) else {
      Issue.record("expected the failure")
      return
    }
    #expect(error.code == .invalidArgument)
    guard case .finished = await buffer.take(isolation: nil) else {
      Issue.record("expected the end after the failure")
      return
    }
  }

  @Test func cancellingAWaitingReaderFinishesAndClosesTheBuffer() async {
    let buffer = SubscriptionBuffer()
    let reader = Task { await buffer.take(isolation: nil) }
    reader.cancel()
    guard case .finished = await reader.value else {
      Issue.record("expected finished")
      return
    }
    #expect(buffer.isClosed)
    #expect(buffer.append(.synced(revision: 1)) == false)
  }

  @Test func stoppingTheReaderCancelsOnceAndDropsLaterEvents() async {
    let buffer = SubscriptionBuffer()
    let stops = Counter()
    var reader: SubscriptionReader? = SubscriptionReader(buffer: buffer) { stops.add() }
    reader?.stop()
    reader = nil
    #expect(stops.value == 1)
    #expect(buffer.append(.synced(revision: 1)) == false)
  }

  @Test func droppingTheSequenceStopsTheSubscription() async {
    let buffer = SubscriptionBuffer()
    let stops = Counter()
    do {
      let subscription = WidgetSubscription(
        reader: SubscriptionReader(buffer: buffer) { stops.add() })
      _ = subscription.makeAsyncIterator()
    }
    #expect(stops.value == 1)
    #expect(buffer.isClosed)
  }
}

private final class Counter: Sendable {
  private let count = Atomic(0)
  func add() { count.wrappingAdd(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}
