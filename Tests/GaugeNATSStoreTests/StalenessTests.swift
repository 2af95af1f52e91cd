import GaugeDomain
import GaugeNATS
import GaugeNATSStore
import NATSTesting
import Testing

/// Widgets whose `staleAfterMs` ran out are marked through the bucket, once
/// however many instances try, on a clock moved by hand.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StalenessTests {
  @Test func aWidgetIsMarkedStaleOnceThroughTheBucket() async throws {
    try await withNATSServer { server in
      let clock = HandClock()
      let first = try await loadedStore(server, clock: clock.read)
      let second = try await loadedStore(server, clock: clock.read)
      var request = gauge("cpu")
      request.staleAfterMs = 1_000
      let written = try first.put(request).widget
      try await waitUntil("the second store's copy") { widget("cpu", in: second) == written }

      clock.advance(byMs: 999)
      #expect(first.markStaleWidgets() == 0)
      clock.advance(byMs: 1)
      #expect(first.markStaleWidgets() == 1)
      // The second instance finds it marked, or loses the compare-and-set.
      #expect(second.markStaleWidgets() == 0)

      try await waitUntil("the mark on both") {
        [first, second].allSatisfy { widget("cpu", in: $0)?.stale == true }
      }
      let marked = try second.get(id: "cpu")
      #expect(marked.revision > written.revision)
      #expect(marked.updatedAtMs == written.updatedAtMs)
      clock.advance(byMs: 10_000)
      #expect(first.markStaleWidgets() == 0)
      #expect(second.markStaleWidgets() == 0)

      // A write clears the mark and sets a new deadline.
      let fresh = try second.setValue(3, id: "cpu")
      #expect(!fresh.stale)
      clock.advance(byMs: 1_000)
      #expect(second.markStaleWidgets() == 1)
    }
  }
}
