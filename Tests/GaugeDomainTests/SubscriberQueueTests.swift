import Testing

@testable import GaugeDomain

/// A bare event: a widget id, a revision, maybe a removal.
struct TestEvent: SubscriptionEvent, Equatable {
  var widgetID: String
  var revision: UInt64
  var isRemoval = false
}

@Suite struct SubscriberQueueTests {
  private func drain(_ queue: inout SubscriberQueue<TestEvent>, nowMs: Int64 = 0)
    -> [SubscriberQueue<TestEvent>.Output]
  {
    var out: [SubscriberQueue<TestEvent>.Output] = []
    while let next = queue.next(nowMs: nowMs) { out.append(next) }
    return out
  }

  @Test func initialThenSyncedThenLive() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(
      resetFirst: false, initial: [TestEvent(widgetID: "a", revision: 3)], revision: 5)
    queue.offer(TestEvent(widgetID: "b", revision: 6))
    #expect(
      drain(&queue) == [
        .event(TestEvent(widgetID: "a", revision: 3)), .synced(revision: 5),
        .event(TestEvent(widgetID: "b", revision: 6)),
      ])
    #expect(queue.isEmpty)
  }

  @Test func resetComesFirst() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: true, initial: [TestEvent(widgetID: "a", revision: 3)], revision: 9)
    #expect(drain(&queue).first == .reset(revision: 9))
  }

  @Test func liveEventsAlreadyInTheInitialStateAreDropped() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: false, initial: [TestEvent(widgetID: "a", revision: 5)], revision: 5)
    queue.offer(TestEvent(widgetID: "a", revision: 4))
    queue.offer(TestEvent(widgetID: "a", revision: 5))
    #expect(drain(&queue) == [.event(TestEvent(widgetID: "a", revision: 5)), .synced(revision: 5)])
  }

  @Test func aNewerChangeReplacesTheInitialStateInPlace() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(
      resetFirst: false,
      initial: [TestEvent(widgetID: "a", revision: 2), TestEvent(widgetID: "b", revision: 3)],
      revision: 3)
    queue.offer(TestEvent(widgetID: "a", revision: 7))
    #expect(
      drain(&queue) == [
        .event(TestEvent(widgetID: "a", revision: 7)),
        .event(TestEvent(widgetID: "b", revision: 3)),
        .synced(revision: 3),
      ])
  }

  @Test func liveChangesCoalescePerWidgetKeepingArrivalOrder() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: false, initial: [], revision: 0)
    _ = drain(&queue)
    for revision in 1...1000 as ClosedRange<UInt64> {
      queue.offer(TestEvent(widgetID: revision % 2 == 0 ? "even" : "odd", revision: revision))
    }
    #expect(queue.waitingCount == 2)
    #expect(
      drain(&queue) == [
        .event(TestEvent(widgetID: "odd", revision: 999)),
        .event(TestEvent(widgetID: "even", revision: 1000)),
      ])
  }

  @Test func memoryIsBoundedByWidgetsNotChanges() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: false, initial: [], revision: 0)
    var revision: UInt64 = 0
    for _ in 0..<100 {
      for id in 0..<50 {
        revision += 1
        queue.offer(TestEvent(widgetID: "w\(id)", revision: revision))
      }
    }
    #expect(queue.waitingCount == 50)
  }

  @Test func minimumIntervalHoldsBackAndEndsOnTheLatest() {
    var queue = SubscriberQueue<TestEvent>(minIntervalMs: 100)
    queue.begin(resetFirst: false, initial: [], revision: 0)
    _ = drain(&queue, nowMs: 0)
    queue.offer(TestEvent(widgetID: "a", revision: 1))
    #expect(drain(&queue, nowMs: 1000) == [.event(TestEvent(widgetID: "a", revision: 1))])
    queue.offer(TestEvent(widgetID: "a", revision: 2))
    queue.offer(TestEvent(widgetID: "b", revision: 3))
    queue.offer(TestEvent(widgetID: "a", revision: 4))
    // "b" was never sent, so it is due; "a" waits for its interval.
    #expect(drain(&queue, nowMs: 1050) == [.event(TestEvent(widgetID: "b", revision: 3))])
    #expect(queue.nextDueMs(nowMs: 1050) == 1100)
    #expect(drain(&queue, nowMs: 1099) == [])
    #expect(drain(&queue, nowMs: 1100) == [.event(TestEvent(widgetID: "a", revision: 4))])
    #expect(queue.nextDueMs(nowMs: 1100) == nil)
  }

  @Test func aLiveEventGoesDirectOnlyWhenNothingIsOwedBeforeIt() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: false, initial: [TestEvent(widgetID: "a", revision: 1)], revision: 2)
    // The initial state and synced are still owed: the event must wait.
    #expect(!queue.sendsDirect(TestEvent(widgetID: "b", revision: 3)))
    _ = drain(&queue)
    #expect(!queue.sendsDirect(TestEvent(widgetID: "b", revision: 2)))
    #expect(queue.sendsDirect(TestEvent(widgetID: "b", revision: 4)))
    queue.offer(TestEvent(widgetID: "c", revision: 5))
    #expect(!queue.sendsDirect(TestEvent(widgetID: "d", revision: 6)))
  }

  @Test func aMinimumIntervalNeverGoesDirect() {
    var queue = SubscriberQueue<TestEvent>(minIntervalMs: 10)
    queue.begin(resetFirst: false, initial: [], revision: 0)
    _ = drain(&queue)
    #expect(!queue.sendsDirect(TestEvent(widgetID: "a", revision: 1)))
  }

  @Test func removalsCoalesceWithUpserts() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: false, initial: [], revision: 0)
    _ = drain(&queue)
    queue.offer(TestEvent(widgetID: "a", revision: 1))
    queue.offer(TestEvent(widgetID: "a", revision: 2, isRemoval: true))
    #expect(drain(&queue) == [.event(TestEvent(widgetID: "a", revision: 2, isRemoval: true))])
  }
}

@Suite struct WidgetFilterTests {
  @Test func emptyFilterWatchesEverything() {
    #expect(WidgetFilter().matches("anything"))
  }

  @Test func idsAndPrefixAreAUnion() {
    let filter = WidgetFilter(ids: ["x"], idPrefix: "cpu-")
    #expect(filter.matches("x"))
    #expect(filter.matches("cpu-1"))
    #expect(!filter.matches("mem-1"))
  }

  @Test func invalidIdsAreViolations() {
    let violations = WidgetFilter(ids: ["ok", "_bad", ""]).violations()
    #expect(violations.map(\.field) == ["ids", "ids"])
  }
}
