import GaugeDomain
import GaugeNATS
import Synchronization
import Testing

@testable import GaugeNATSStore

/// The bookkeeping behind PublishValues through NATS, without a server:
/// what goes out in each flush, and when waiters are answered.
@Suite struct PendingValuesTests {
  @Test func valuesWithinAFlushGoOutAsOnePutOfTheLatest() throws {
    var pending = PendingValues()
    let known = stored("cpu", revision: 7)
    let first = try pending.accept(1, id: "cpu", now: 10, lookUp: { _ in known })
    let second = try pending.accept(2, id: "cpu", now: 11, lookUp: { _ in known })
    #expect(first == true)
    #expect(second == false)
    let puts = pending.startFlush(retrying: false)
    #expect(puts.map(\.id) == ["cpu"])
    #expect(puts.first?.expectedRevision == 7)
    #expect(puts.first?.widget.content.mainValue == 2)
    #expect(puts.first?.widget.updatedAtMs == 11)
  }

  @Test func aValueThatArrivesDuringAPutGoesInTheNextFromItsRevision() throws {
    var pending = PendingValues()
    let known = stored("cpu", revision: 7)
    _ = try pending.accept(1, id: "cpu", now: 10, lookUp: { _ in known })
    _ = pending.startFlush(retrying: false)
    // One put in flight per widget: this one waits for its answer.
    _ = try pending.accept(3, id: "cpu", now: 12, lookUp: { _ in known })
    let whileInFlight = pending.startFlush(retrying: false)
    #expect(whileInFlight.isEmpty)
    pending.stored("cpu", revision: 9)
    let next = pending.startFlush(retrying: false)
    #expect(next.first?.expectedRevision == 9)
    #expect(next.first?.widget.content.mainValue == 3)
  }

  @Test func valuesOverTheBoundsAreRejectedAndUnknownWidgetsSaidSo() throws {
    var pending = PendingValues()
    let known = stored("cpu", revision: 7)
    do throws(WidgetError) {
      _ = try pending.accept(500, id: "cpu", now: 10, lookUp: { _ in known })
      Issue.record("a value over the bounds was accepted")
    } catch {
      guard case .invalid = error else {
        Issue.record("not invalid: \(error)")
        return
      }
    }
    let unknown = try pending.accept(1, id: "absent", now: 10, lookUp: { _ in nil })
    #expect(unknown == nil)
    #expect(pending.settledAnswer != nil)
  }

  @Test func aWaiterIsAnsweredOnceEveryEarlierValueIsStored() throws {
    var pending = PendingValues()
    _ = try pending.accept(1, id: "a", now: 10, lookUp: { stored($0, revision: 1) })
    _ = try pending.accept(1, id: "b", now: 10, lookUp: { stored($0, revision: 2) })
    let answers = Answers()
    let registered = pending.whenStored(answers.record)
    #expect(registered == nil)
    _ = pending.startFlush(retrying: false)
    pending.stored("a", revision: 3)
    let early = pending.takeSettledWaiters()
    #expect(early.isEmpty)
    pending.stored("b", revision: 4)
    let settled = pending.takeSettledWaiters()
    #expect(settled.count == 1)
    #expect(pending.lastStoredRevision == 4)
    // Nothing unstored: the next waiter is answered at once.
    let atOnce = pending.whenStored(answers.record)
    #expect(succeeded(atOnce) == true, "not answered at once with nothing unstored")
  }

  @Test func aFailedPutKeepsItsValueRefusesNewOnesAndTellsItsWaiters() throws {
    var pending = PendingValues()
    _ = try pending.accept(1, id: "cpu", now: 10, lookUp: { stored($0, revision: 1) })
    let answers = Answers()
    let registered = pending.whenStored(answers.record)
    #expect(registered == nil)
    _ = pending.startFlush(retrying: false)
    let down = NATSError(operation: "update w.cpu", kind: .unavailable, detail: "no servers")
    let told = pending.failed("cpu", down)
    #expect(told.count == 1)
    #expect(pending.blocker != nil)
    #expect(
      succeeded(pending.settledAnswer) == false,
      "a waiter after the failure is not told the values are not stored")
    // Not sent again before the retry.
    let beforeRetry = pending.startFlush(retrying: false)
    #expect(beforeRetry.isEmpty)
    let retried = pending.startFlush(retrying: true)
    #expect(retried.map(\.widget.content.mainValue) == [1])
    pending.stored("cpu", revision: 2)
    #expect(pending.blocker == nil)
    #expect(succeeded(pending.settledAnswer) == true, "unsettled after the retry was stored")
  }

  @Test func aLostRaceGoesOnTopOfTheLatestUnlessALaterWriteSupersededIt() throws {
    var pending = PendingValues()
    _ = try pending.accept(4, id: "cpu", now: 10, lookUp: { stored($0, revision: 1) })
    _ = pending.startFlush(retrying: false)
    pending.lostRace("cpu")
    let conflicted = pending.takeConflicted()
    #expect(conflicted == ["cpu"])
    var relabelled = stored("cpu", revision: 5)
    relabelled.content.label = "other"
    relabelled.updatedAtMs = 9
    let reapplied = pending.reread("cpu", latest: relabelled)
    #expect(reapplied)
    let again = pending.startFlush(retrying: false)
    #expect(again.first?.expectedRevision == 5)
    #expect(again.first?.widget.content.label == "other")
    #expect(again.first?.widget.content.mainValue == 4)

    pending.lostRace("cpu")
    var later = relabelled
    later.revision = 6
    later.updatedAtMs = 20
    // Written after the value was accepted: the value counts as overwritten.
    let superseded = !pending.reread("cpu", latest: later)
    #expect(superseded)
    #expect(succeeded(pending.settledAnswer) == true, "a superseded value is still waited for")
  }
}

/// A gauge `id` as the bucket holds it at `revision`.
private func stored(_ id: String, revision: UInt64) -> Widget {
  Widget(
    id: id, name: id,
    content: Content(template: .gauge(Gauge(value: 0, minValue: 0, maxValue: 100))),
    revision: revision, createdAtMs: 1, updatedAtMs: 1)
}

/// Whether an answer is there and a success; nil when there is none yet.
private func succeeded(_ answer: Result<Void, WidgetError>?) -> Bool? {
  answer.map { result in
    if case .success = result { return true }
    return false
  }
}

/// What waiters were told.
private final class Answers: Sendable {
  private let results = Mutex<[Result<Void, WidgetError>]>([])

  func record(_ result: Result<Void, WidgetError>) {
    results.withLock { $0.append(result) }
  }
}
