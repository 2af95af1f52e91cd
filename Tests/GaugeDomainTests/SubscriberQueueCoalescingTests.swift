import Testing

@testable import GaugeDomain

@Suite struct SubscriberQueueCoalescingTests {
  @Test func offerSaysWhenAnEventWillNeverBeSent() {
    var queue = SubscriberQueue<TestEvent>()
    queue.begin(resetFirst: false, initial: [], revision: 5)
    #expect(queue.offer(TestEvent(widgetID: "a", revision: 6)) == false)
    #expect(queue.offer(TestEvent(widgetID: "b", revision: 7)) == false)
    // A second change of "a" while the first still waits: one is dropped.
    #expect(queue.offer(TestEvent(widgetID: "a", revision: 8)) == true)
    // Older than what the subscriber has: ignored, not coalesced.
    #expect(queue.offer(TestEvent(widgetID: "c", revision: 4)) == false)
    var sent: [UInt64] = []
    while let next = queue.next(nowMs: 0) {
      if case .event(let event) = next { sent.append(event.revision) }
    }
    #expect(sent == [8, 7])
  }
}
