import GRPCCore
import GRPCTransport
import GaugeDomain
import Synchronization
import Testing

@testable import GaugeService

/// A loop whose queued work runs only when the test says so.
final class ManualLoop: LoopExecutor, @unchecked Sendable {
  // @unchecked Sendable: the queue is guarded by its mutex.
  private let queued = Mutex<[@Sendable () -> Void]>([])
  /// Work always waits for `runQueued`, as if posted from another thread.
  let inLoop = false

  func execute(_ work: @escaping @Sendable () -> Void) {
    queued.withLock { $0.append(work) }
  }

  var pendingWakeUps: Int { queued.withLock { $0.count } }

  /// The limits `writeQueuedOutput` was called with, and after how many
  /// offers to `offerCounter`'s subscribers.
  let writeChecks = Mutex<[(limit: Int, offers: Int)]>([])
  let offerCounter = Mutex(0)

  func writeQueuedOutput(ifMoreThan limit: Int) {
    let offers = offerCounter.withLock { $0 }
    writeChecks.withLock { $0.append((limit, offers)) }
  }

  func runQueued() {
    let work = queued.withLock { queued in
      defer { queued.removeAll() }
      return queued
    }
    for item in work { item() }
  }
}

final class RecordingSubscriber: InboxSubscriber {
  var filter: WidgetFilter
  var inboxSlot: Int32 = -1
  var offered: [(id: String, revision: UInt64)] = []
  var pumps = 0
  var encodedBytes: [[UInt8]] = []
  let keepsUp: Bool
  private let countingLoop: ManualLoop?

  init(
    filter: WidgetFilter = WidgetFilter(), keepsUp: Bool = false,
    countingOffersIn loop: ManualLoop? = nil
  ) {
    self.filter = filter
    self.keepsUp = keepsUp
    self.countingLoop = loop
  }

  /// A reader that keeps up takes each event at once; one that does not
  /// queues it for `pump`.
  func offer(_ event: SharedEvent) -> Bool {
    countingLoop?.offerCounter.withLock { $0 += 1 }
    offered.append((event.widgetID, event.revision))
    encodedBytes.append(event.framed.bytes)
    return keepsUp
  }

  func pump() {
    pumps += 1
  }
}

@Suite struct ChangeHubTests {
  private func widget(_ id: String, revision: UInt64, value: Double = 1) -> WidgetChange {
    .upserted(
      Widget(
        id: id, name: "", content: Content(template: .progress(Progress(value: value))),
        revision: revision, createdAtMs: 0, updatedAtMs: 0), created: false)
  }

  @Test func aBurstOfChangesWakesTheLoopOnceAndCoalesces() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let subscriber = RecordingSubscriber()
    _ = hub.attach(subscriber, executor: loop)
    for revision in 1...10_000 as ClosedRange<UInt64> {
      hub.publish(widget(revision % 2 == 0 ? "a" : "b", revision: revision))
    }
    #expect(loop.pendingWakeUps == 1)
    loop.runQueued()
    #expect(subscriber.offered.map(\.id) == ["b", "a"])
    #expect(subscriber.offered.map(\.revision) == [9999, 10_000])
    #expect(subscriber.pumps == 1)
  }

  /// A producer's batch: one wake, and each widget's last change, in the
  /// order widgets first changed, whether its changes were adjacent or not.
  @Test func aBatchIsPostedOnceWithEachWidgetsLastChange() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let subscriber = RecordingSubscriber()
    _ = hub.attach(subscriber, executor: loop)
    hub.publish(
      batch: [
        widget("a", revision: 1), widget("a", revision: 2), widget("b", revision: 3),
        widget("a", revision: 4), widget("c", revision: 5), widget("c", revision: 6),
      ])
    #expect(loop.pendingWakeUps == 1)
    hub.publish(batch: [widget("b", revision: 7)])
    #expect(loop.pendingWakeUps == 1)
    loop.runQueued()
    #expect(subscriber.offered.map(\.id) == ["a", "b", "c"])
    #expect(subscriber.offered.map(\.revision) == [4, 7, 6])
  }

  /// Connections waiting to write are written during the batch's last
  /// change, every few offers, rather than all after the batch; never
  /// before it, when a connection written early could be offered more.
  @Test func queuedOutputIsWrittenDuringTheLastChangeOnly() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let subscribers = (0..<40).map { _ in
      RecordingSubscriber(keepsUp: true, countingOffersIn: loop)
    }
    for subscriber in subscribers { _ = hub.attach(subscriber, executor: loop) }
    hub.publish(batch: [widget("a", revision: 1), widget("b", revision: 2)])
    loop.runQueued()
    #expect(subscribers.allSatisfy { $0.offered.map(\.id) == ["a", "b"] })
    let every = LoopInbox.offersBetweenWriteChecks
    let checks = loop.writeChecks.withLock { $0 }
    #expect(checks.map(\.offers) == [40 + every, 40 + 2 * every])
    #expect(checks.allSatisfy { $0.limit == LoopInbox.connectionsWaitingToWrite })
  }

  @Test func eachLoopGetsEveryChange() {
    let hub = ChangeHub()
    let loops = [ManualLoop(), ManualLoop()]
    let subscribers = [RecordingSubscriber(), RecordingSubscriber(), RecordingSubscriber()]
    _ = hub.attach(subscribers[0], executor: loops[0])
    _ = hub.attach(subscribers[1], executor: loops[1])
    _ = hub.attach(subscribers[2], executor: loops[1])
    hub.publish(widget("x", revision: 1))
    for loop in loops { loop.runQueued() }
    #expect(subscribers.allSatisfy { $0.offered.map(\.revision) == [1] })
  }

  @Test func anEventIsEncodedOncePerLoopAndShared() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let first = RecordingSubscriber()
    let second = RecordingSubscriber()
    _ = hub.attach(first, executor: loop)
    _ = hub.attach(second, executor: loop)
    hub.publish(widget("x", revision: 1))
    loop.runQueued()
    #expect(!first.encodedBytes[0].isEmpty)
    #expect(first.encodedBytes == second.encodedBytes)
    // The same storage, not equal copies.
    let storage = { (bytes: [UInt8]) in bytes.withUnsafeBytes { $0.baseAddress } }
    #expect(storage(first.encodedBytes[0]) == storage(second.encodedBytes[0]))
  }

  @Test func filtersDecideWhoIsOffered() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let cpu = RecordingSubscriber(filter: WidgetFilter(idPrefix: "cpu-"))
    let listed = RecordingSubscriber(filter: WidgetFilter(ids: ["mem"]))
    _ = hub.attach(cpu, executor: loop)
    _ = hub.attach(listed, executor: loop)
    hub.publish(widget("cpu-1", revision: 1))
    hub.publish(widget("mem", revision: 2))
    hub.publish(widget("disk", revision: 3))
    loop.runQueued()
    #expect(cpu.offered.map(\.id) == ["cpu-1"])
    #expect(listed.offered.map(\.id) == ["mem"])
  }

  @Test func detachedSubscribersHearNothingAndIdleLoopsAreNotWoken() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let subscriber = RecordingSubscriber()
    let inbox = hub.attach(subscriber, executor: loop)
    inbox.detach(subscriber)
    hub.publish(widget("x", revision: 1))
    #expect(loop.pendingWakeUps == 0)
    loop.runQueued()
    #expect(subscriber.offered.isEmpty)
  }

  /// With no subscriber left anywhere, publishing skips the inboxes; a
  /// subscriber attached again, on this loop or another, is offered the
  /// next change.
  @Test func theLastSubscriberLeavingAndANewOneArriving() {
    let hub = ChangeHub()
    let (first, second) = (ManualLoop(), ManualLoop())
    let leaving = RecordingSubscriber(keepsUp: true)
    let inbox = hub.attach(leaving, executor: first)
    inbox.detach(leaving)
    hub.publish(widget("x", revision: 1))
    #expect(first.pendingWakeUps == 0)

    let again = RecordingSubscriber(keepsUp: true)
    let elsewhere = RecordingSubscriber(keepsUp: true)
    _ = hub.attach(again, executor: first)
    _ = hub.attach(elsewhere, executor: second)
    hub.publish(widget("x", revision: 2))
    first.runQueued()
    second.runQueued()
    #expect(again.offered.map(\.revision) == [2])
    #expect(elsewhere.offered.map(\.revision) == [2])
    #expect(leaving.offered.isEmpty)
  }

  /// Subscribers sharing a filter sit in one bucket; removing one from
  /// the middle moves the last into its slot, and each must still be found
  /// (and removed) by the slot it keeps.
  @Test func detachingFromTheMiddleOfABucketKeepsTheOthers() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let subscribers = (0..<4).map { _ in RecordingSubscriber() }
    var inbox: LoopInbox?
    for subscriber in subscribers { inbox = hub.attach(subscriber, executor: loop) }
    inbox?.detach(subscribers[1])
    inbox?.detach(subscribers[1])
    inbox?.detach(subscribers[0])
    #expect(subscribers[0].inboxSlot == -1)
    #expect(inbox?.subscriberCount.load(ordering: .relaxed) == 2)
    hub.publish(widget("x", revision: 1))
    loop.runQueued()
    #expect(subscribers.map(\.offered.count) == [0, 0, 1, 1])
    inbox?.detach(subscribers[3])
    inbox?.attach(subscribers[0])
    hub.publish(widget("x", revision: 2))
    loop.runQueued()
    #expect(subscribers.map(\.offered.count) == [1, 0, 2, 1])
  }

  @Test func publishingNeverWaitsForAnUndrainedLoop() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    _ = hub.attach(RecordingSubscriber(), executor: loop)
    // The loop never runs; the inbox holds one change per widget.
    for revision in 1...50_000 as ClosedRange<UInt64> {
      hub.publish(widget("w\(revision % 10)", revision: revision))
    }
    #expect(loop.pendingWakeUps == 1)
  }

  @Test func readersThatKeepUpAreNotPumped() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let fast = RecordingSubscriber(keepsUp: true)
    let slow = RecordingSubscriber()
    _ = hub.attach(fast, executor: loop)
    _ = hub.attach(slow, executor: loop)
    hub.publish(widget("a", revision: 1))
    hub.publish(widget("b", revision: 2))
    loop.runQueued()
    #expect(fast.offered.count == 2 && slow.offered.count == 2)
    #expect(fast.pumps == 0)
    #expect(slow.pumps == 1)
  }

  @Test func subscribersSharingAFilterStayIndependent() {
    let hub = ChangeHub()
    let loop = ManualLoop()
    let filter = WidgetFilter(ids: ["x"])
    let subscribers = (0..<3).map { _ in RecordingSubscriber(filter: filter) }
    let inbox = subscribers.map { hub.attach($0, executor: loop) }[0]
    inbox.detach(subscribers[0])
    hub.publish(widget("x", revision: 1))
    loop.runQueued()
    #expect(subscribers.map(\.offered.count) == [0, 1, 1])
    inbox.detach(subscribers[1])
    inbox.detach(subscribers[2])
    hub.publish(widget("x", revision: 2))
    #expect(loop.pendingWakeUps == 0)
  }
}
