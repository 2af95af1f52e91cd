import GRPCTransport
import GaugeDomain
import GaugeMetrics
import Testing

@testable import GaugeService

@Suite struct SelfWidgetsTests {
  private func gaugeValue(_ widget: Widget) -> Double? {
    guard case .gauge(let gauge) = widget.content.template else { return nil }
    return gauge.value
  }

  private func sample(
    at time: Double, revision: UInt64 = 0, events: UInt64 = 0, unary: [UInt64]? = nil
  ) -> SelfGaugeSample {
    SelfGaugeSample(
      time: time, connections: 3, subscriptions: 2, eventsSent: events, revision: revision,
      unaryHandling: unary.map {
        HistogramSnapshot(upperBounds: HistogramBuckets.latencySeconds, counts: $0)
      }, storeQueueDepth: 7)
  }

  private func counts(_ pairs: [Int: UInt64]) -> [UInt64] {
    (0...HistogramBuckets.latencySeconds.count).map { pairs[$0] ?? 0 }
  }

  @Test func ratesAreTheChangeBetweenSamplesWithoutGaugedsOwnWrites() {
    let readings = SelfGaugeReadings(
      from: sample(at: 10, revision: 100, events: 1000),
      to: sample(at: 12, revision: 310, events: 5000), ownWrites: 10)
    #expect(readings.writesPerSecond == 100)
    #expect(readings.eventsPerSecond == 2000)
    #expect(readings.connections == 3 && readings.subscriptions == 2)
    #expect(readings.storeQueueDepth == 7)
    #expect(readings.unaryP99Milliseconds == nil)
  }

  @Test func aSampleOlderThanTheLastChangesNothing() throws {
    let store = InMemoryWidgetStore()
    let widgets = SelfWidgets(
      store: store, metrics: ServerMetrics(), revision: { 0 }, storeQueueDepth: { 0 })
    widgets.record(sample(at: 10, revision: 100))
    let written = store.snapshot().lastRevision
    #expect(written == UInt64(SelfWidget.allCases.count), "the first sample writes them all")
    widgets.record(sample(at: 9, revision: 50))
    #expect(store.snapshot().lastRevision == written)
    widgets.record(sample(at: 11, revision: 100 + written))
    #expect(
      gaugeValue(try store.get(id: SelfWidget.writesPerSecond.id)) == 0,
      "its own writes are not counted as clients'")
  }

  @Test func p99IsTheBucketHoldingItAmongTheCallsOfTheInterval() {
    // Before: 1,000 slow calls. Since: 99 under 5 ms and 1 under 50 ms.
    let before = counts([5: 1000])
    let after = counts([0: 99, 3: 1, 5: 1000])
    let readings = SelfGaugeReadings(
      from: sample(at: 0, unary: before), to: sample(at: 1, unary: after), ownWrites: 0)
    #expect(readings.unaryP99Milliseconds == 5)
    let slower = counts([0: 98, 3: 2, 5: 1000])
    #expect(
      SelfGaugeReadings(
        from: sample(at: 0, unary: before), to: sample(at: 1, unary: slower), ownWrites: 0
      ).unaryP99Milliseconds == 50)
    #expect(
      SelfGaugeReadings(
        from: sample(at: 0, unary: before), to: sample(at: 1, unary: before), ownWrites: 0
      ).unaryP99Milliseconds == nil, "no call in the interval")
  }

  @Test func aReadingAboveTheUsualMaximumRaisesItAndEveryWidgetIsValid() throws {
    #expect(SelfWidget.niceCeiling(0.5) == 1)
    #expect(SelfWidget.niceCeiling(101) == 200)
    #expect(SelfWidget.niceCeiling(200) == 200)
    #expect(SelfWidget.niceCeiling(4321) == 5000)
    let store = InMemoryWidgetStore()
    for widget in SelfWidget.allCases {
      for value in [nil, 0, 3.14159, 99_999.5] as [Double?] {
        let stored = try store.put(widget.put(value)).widget
        guard case .gauge(let gauge) = stored.content.template else {
          Issue.record("\(widget) is not a gauge")
          continue
        }
        #expect(gauge.value <= gauge.maxValue)
        #expect(stored.id.hasPrefix(SelfWidget.prefix))
      }
    }
    #expect(
      SelfWidget.unaryP99.put(nil).content?.template.map { template in
        guard case .gauge(let gauge) = template else { return false }
        return gauge.currentValueLabel == "no calls"
      } == true)
  }
}
