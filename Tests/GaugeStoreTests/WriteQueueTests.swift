import GaugeDomain
import Synchronization
import Testing

@testable import GaugeStore

@Suite struct WriteQueueTests {
  /// Waiters that note their number and answer when called.
  final class Answers: Sendable {
    private let log = Mutex<[(Int, Bool)]>([])

    func waiter(_ number: Int) -> WriteQueue.Waiter {
      { result in
        let succeeded = (try? result.get()) != nil
        self.log.withLock { $0.append((number, succeeded)) }
      }
    }

    func call(_ waiters: [WriteQueue.Waiter], with result: Result<Void, WidgetError>) {
      for waiter in waiters { waiter(result) }
    }

    var all: [(Int, Bool)] { log.withLock { $0 } }
  }

  private func change(_ revision: UInt64) -> WidgetChange {
    .removed(id: "w\(revision)", revision: revision)
  }

  /// A run of values counts each of them: a waiter that asked after the
  /// run is released only by a commit that took all of it.
  @Test func aRunOfValuesCountsEachValue() {
    let answers = Answers()
    var queue = WriteQueue()
    let values = (1...3).map {
      ValueChange(id: "a", value: Double($0), revision: UInt64($0), updatedAtMs: 0)
    }
    _ = queue.recordValues(values)
    #expect(queue.recorded == 3)
    _ = queue.waitUntilCommitted(answers.waiter(1))
    #expect(queue.waiterCount == 1)
    let (taken, through) = queue.take()
    #expect(through == 3)
    #expect(taken.batch(expectedWidgets: 1).changeCount == 3)
    answers.call(queue.commitSucceeded(through: through), with: .success(()))
    #expect(answers.all.map(\.0) == [1])
    #expect(queue.recordValues([]) == false)
    #expect(queue.recorded == 3)
  }

  @Test func withNothingRecordedAWaiterIsAnsweredAtOnce() {
    var queue = WriteQueue()
    let answer = queue.waitUntilCommitted { _ in }
    #expect((try? answer?.get()) != nil)
    #expect(queue.waiterCount == 0)
  }

  @Test func aWaiterIsReleasedOnlyByTheCommitThatHoldsItsChanges() {
    let answers = Answers()
    var queue = WriteQueue()
    _ = queue.record(change(1), removedAtMs: 0)
    _ = queue.record(change(2), removedAtMs: 0)
    #expect(queue.waitUntilCommitted(answers.waiter(1)) == nil)
    let first = queue.take()
    #expect(first.through == 2)
    #expect(first.changes.batch().changeCount == 2)
    // A change recorded while the first commit runs is not in it.
    _ = queue.record(change(3), removedAtMs: 0)
    #expect(queue.waitUntilCommitted(answers.waiter(2)) == nil)
    #expect(answers.all.isEmpty)

    answers.call(queue.commitSucceeded(through: first.through), with: .success(()))
    #expect(answers.all.map(\.0) == [1])
    let second = queue.take()
    answers.call(queue.commitSucceeded(through: second.through), with: .success(()))
    #expect(answers.all.map(\.0) == [1, 2])
    #expect(queue.waiterCount == 0)
  }

  @Test func aFailedCommitFailsItsWaitersAndBlocksWritesUntilACommitSucceeds() {
    let answers = Answers()
    var queue = WriteQueue()
    let full = WidgetError.unavailable("not applied: disk full")
    let notDurable = WidgetError.unavailable(
      "applied but not yet durable: disk full; "
        + "the change stays queued and reaches the file once a retry succeeds")
    _ = queue.record(change(1), removedAtMs: 0)
    _ = queue.waitUntilCommitted(answers.waiter(1))
    let taken = queue.take()
    _ = queue.record(change(2), removedAtMs: 0)
    _ = queue.waitUntilCommitted(answers.waiter(2))

    answers.call(
      queue.commitFailed(through: taken.through, failure: "disk full"),
      with: .failure(notDurable))
    #expect(answers.all.map(\.0) == [1])
    #expect(answers.all.map(\.1) == [false])
    #expect(queue.blocker == full)
    #expect(queue.notDurableError == notDurable)
    // Nothing recorded since has been committed either: still waiting.
    #expect(queue.waitUntilCommitted(answers.waiter(3)) == nil)

    let retry = queue.take()
    answers.call(queue.commitSucceeded(through: retry.through), with: .success(()))
    #expect(queue.blocker == nil)
    #expect(queue.notDurableError == nil)
    #expect(answers.all.map(\.0) == [1, 2, 3])
  }

  @Test func theFirstChangeOfABatchStartsItsFlushClock() {
    var queue = WriteQueue()
    _ = queue.record(change(1), removedAtMs: 0, now: { 100 })
    _ = queue.record(change(2), removedAtMs: 0, now: { 200 })
    #expect(queue.pendingSinceNs == 100)
    _ = queue.take()
    _ = queue.record(change(3), removedAtMs: 0, now: { 300 })
    #expect(queue.pendingSinceNs == 300)
  }

  @Test func onlyAnIdleWriterIsWoken() {
    var queue = WriteQueue()
    #expect(queue.record(change(1), removedAtMs: 0) == false)
    queue.writerIdle = true
    #expect(queue.record(change(2), removedAtMs: 0) == true)
    #expect(queue.record(change(3), removedAtMs: 0) == false)
  }

  @Test func aClosingQueueRefusesWrites() {
    var queue = WriteQueue()
    #expect(queue.blocker == nil)
    queue.beginClosing()
    #expect(queue.blocker == .unavailable("the store is closed"))
  }
}
