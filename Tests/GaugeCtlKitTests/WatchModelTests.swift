import GaugeDomain
import GaugeWire
import Testing

@testable import GaugeCtlKit

func gaugeWidget(_ id: String, value: Double, revision: UInt64, updatedAtMs: Int64 = 0) -> Widget {
  Widget(
    id: id, name: "",
    content: Content(template: .gauge(Gauge(value: value, minValue: 0, maxValue: 100))),
    revision: revision, createdAtMs: 0, updatedAtMs: updatedAtMs)
}

@Suite struct WatchModelTests {
  @Test func snapshotThenSyncedIsLiveAndSetsTheResumePoint() {
    var model = WatchModel()
    model.connecting()
    model.subscribed()
    #expect(model.phase == .syncing)
    model.apply(.upsert(gaugeWidget("b", value: 1, revision: 3)))
    model.apply(.upsert(gaugeWidget("a", value: 2, revision: 5)))
    #expect(!model.isLive)
    model.apply(.synced(revision: 9))
    #expect(model.isLive)
    #expect(model.resumeRevision == 9)
    #expect(model.ordered(ids: []).map(\.id) == ["a", "b"])
    #expect(model.ordered(ids: ["b", "zzz", "a", "b"]).map(\.id) == ["b", "a"])
    model.apply(.removed(id: "a", revision: 10))
    #expect(model.ordered(ids: []).map(\.id) == ["b"])
    // The resume point moves only with synced.
    #expect(model.resumeRevision == 9)
  }

  @Test func aValueDeltaChangesTheValueOfAWidgetItHasAndNothingElse() {
    var model = WatchModel()
    model.subscribed()
    model.apply(.upsert(gaugeWidget("a", value: 2, revision: 5)))
    model.apply(.synced(revision: 5))
    model.apply(.value(id: "a", value: 40, updatedAtMs: 1_000, revision: 6))
    #expect(model.widgets["a"] == gaugeWidget("a", value: 40, revision: 6, updatedAtMs: 1_000))
    // A delta for a widget it never had whole is not made into one.
    model.apply(.value(id: "b", value: 1, updatedAtMs: 1_000, revision: 7))
    #expect(model.widgets["b"] == nil)
  }

  @Test func lostConnectionKeepsDataButIsNeverLiveUntilSyncedAgain() {
    var model = WatchModel()
    model.connecting()
    model.subscribed()
    model.apply(.upsert(gaugeWidget("a", value: 2, revision: 5)))
    model.apply(.synced(revision: 5))
    model.connectionLost(reason: "connection lost")
    #expect(model.phase == .disconnected(attempt: 0, reason: "connection lost"))
    #expect(!model.isLive)
    #expect(model.widgets["a"]?.revision == 5)

    model.connecting()
    #expect(model.phase == .disconnected(attempt: 1, reason: "connection lost"))
    model.subscribed()
    // Catching up is not live yet: still drawn stale.
    #expect(!model.isLive)
    model.apply(.upsert(gaugeWidget("a", value: 7, revision: 8)))
    #expect(!model.isLive)
    model.apply(.synced(revision: 8))
    #expect(model.isLive)
    #expect(model.widgets["a"]?.revision == 8)
  }

  @Test func resetReplacesEverythingOnlyOnceTheNewSnapshotIsComplete() {
    var model = WatchModel()
    model.apply(.upsert(gaugeWidget("old", value: 1, revision: 40)))
    model.apply(.upsert(gaugeWidget("kept", value: 1, revision: 41)))
    model.apply(.synced(revision: 41))
    model.connectionLost(reason: "server restarted")
    model.connecting()
    model.subscribed()
    model.apply(.reset(revision: 0))
    model.apply(.upsert(gaugeWidget("kept", value: 9, revision: 1)))
    // Until synced, the last complete view stays on screen (stale).
    #expect(model.widgets.keys.sorted() == ["kept", "old"])
    #expect(model.widgets["kept"]?.revision == 41)
    model.apply(.synced(revision: 1))
    #expect(model.widgets.keys.sorted() == ["kept"])
    #expect(model.widgets["kept"]?.revision == 1)
    #expect(model.resumeRevision == 1)
    #expect(model.isLive)
  }

  @Test func aResetInterruptedByAnotherLossIsDropped() {
    var model = WatchModel()
    model.apply(.upsert(gaugeWidget("a", value: 1, revision: 4)))
    model.apply(.synced(revision: 4))
    model.apply(.reset(revision: 0))
    model.apply(.upsert(gaugeWidget("b", value: 1, revision: 1)))
    model.connectionLost(reason: "again")
    model.apply(.synced(revision: 2))
    #expect(model.widgets.keys.sorted() == ["a"])
  }

  @Test func eventLines() {
    let widget = gaugeWidget("cpu", value: 42.5, revision: 12)
    #expect(EventLine.text(.upsert(widget)) == "upsert id=cpu revision=12 value=42.5")
    #expect(EventLine.text(.removed(id: "cpu", revision: 13)) == "removed id=cpu revision=13")
    #expect(EventLine.text(.synced(revision: 13)) == "synced revision=13")
    #expect(EventLine.text(.reset(revision: 0)) == "reset revision=0")
    #expect(EventLine.json(.synced(revision: 13)) == #"{"event":"synced","revision":13}"#)
    #expect(
      EventLine.json(.removed(id: "cpu", revision: 13))
        == #"{"event":"removed","revision":13,"id":"cpu"}"#)
  }

  @Test func reconnectBackoffAndPermanentErrors() {
    #expect(WatchSession.backoff(attempt: 1) == .milliseconds(250))
    #expect(WatchSession.backoff(attempt: 2) == .milliseconds(500))
    #expect(WatchSession.backoff(attempt: 4) == .milliseconds(2000))
    #expect(WatchSession.backoff(attempt: 50) == .milliseconds(2000))
    #expect(WatchSession.isPermanent(.invalidArgument))
    #expect(!WatchSession.isPermanent(.unavailable))
    #expect(!WatchSession.isPermanent(.ok))
  }
}
