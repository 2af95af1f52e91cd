import Testing

@testable import GaugeClient

/// Subscriptions: snapshot, live changes, cancellation, and what a gauged
/// restart does to them.
@Suite struct SubscriptionTests {
  @Test func snapshotThenLiveChanges() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu-0", content: gaugeContent(1))
    _ = try await client.put(id: "mem", content: gaugeContent(2))
    let collector = EventCollector(client.subscribe(prefix: "cpu-"))
    #expect(await collector.waitFor { $0.isSynced })
    #expect(collector.received.first == .snapshot(try await client.get(id: "cpu-0")))
    #expect(collector.received.count == 2)

    let changed = try await client.put(id: "cpu-0", content: gaugeContent(5))
    _ = try await client.put(id: "mem", content: gaugeContent(6))
    try await client.delete(id: "cpu-0")
    #expect(await collector.waitFor { if case .removed = $0 { true } else { false } })
    let live = Array(collector.events(after: 2))
    #expect(live.count == 2)
    #expect(live.first == .upsert(changed.widget))
    if case .removed(let id, let revision) = live.last {
      #expect(id == "cpu-0")
      #expect(revision > changed.widget.revision)
    } else {
      Issue.record("expected a removed event, got \(live)")
    }
    collector.cancel()
    #expect(await eventually { collector.ended != nil })
    await client.close()
  }

  @Test func invalidRequestEndsWithTheError() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    let collector = EventCollector(client.subscribe(ids: ["not.an.id"]))
    #expect(await eventually { collector.ended != nil })
    #expect(collector.ended??.code == .invalidArgument)
    #expect(collector.ended??.violations.map(\.field) == ["ids"])
    await client.close()
  }

  @Test func cancellingTheConsumerEndsTheStream() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    let collector = EventCollector(client.subscribe())
    #expect(await collector.waitFor { $0.isSynced })
    let started = ContinuousClock.now
    collector.cancel()
    // The stream is reset, not left open: the connection carries no call.
    #expect(await eventually { await client.activeCallCount() == 0 })
    // Only against a hang: how fast is for `make bench`, not for a test on
    // a shared machine under sanitizers (alone it takes milliseconds).
    #expect(ContinuousClock.now - started < .seconds(30))
    #expect(await eventually { collector.ended != nil })
    await client.close()
  }

  @Test func closingTheClientEndsSubscriptions() async throws {
    let server = try GaugedProcess()
    let client = try GaugeClient(target: server.target)
    let collector = EventCollector(client.subscribe())
    #expect(await collector.waitFor { $0.isSynced })
    await client.close()
    #expect(await eventually { collector.ended != nil })
    #expect(collector.ended == .some(nil))
  }

  @Test func resumesAcrossARestartWithItsData() async throws {
    let directory = GaugedProcess.temporaryDirectory()
    let server = try GaugedProcess(storeArguments: ["--data-dir", directory])
    let client = try GaugeClient(target: server.target)
    let writer = try GaugeClient(target: server.target)
    _ = try await client.put(id: "cpu", content: gaugeContent(1))
    let collector = EventCollector(client.subscribe())
    #expect(await collector.waitFor { $0.isSynced })
    server.stop()
    try server.start()
    // Written as soon as the server is back, likely before the subscription
    // is: the resume must replay it.
    let first = try await writer.put(id: "cpu", content: gaugeContent(2))
    #expect(await collector.waitFor() { $0.widget == first.widget })
    let second = try await writer.put(id: "cpu", content: gaugeContent(3))
    #expect(await collector.waitFor { $0.widget == second.widget })
    #expect(!collector.received.contains { $0.isReset })
    #expect(
      !collector.received.dropFirst(2).contains { if case .snapshot = $0 { true } else { false } })
    collector.cancel()
    await writer.close()
    await client.close()
  }

  @Test func memoryRestartSurfacesReset() async throws {
    let server = try GaugedProcess(storeArguments: ["--memory"])
    let client = try GaugeClient(target: server.target)
    for index in 0..<5 { _ = try await client.put(id: "w\(index)", content: gaugeContent(1)) }
    let collector = EventCollector(client.subscribe())
    #expect(await collector.waitFor { $0.isSynced })
    server.stop()
    try server.start()
    let fresh = try await client.put(id: "fresh", content: gaugeContent(9))
    #expect(await collector.waitFor() { $0.isReset })
    #expect(await collector.waitFor { $0.widget == fresh.widget })
    let afterReset = collector.received.drop { !$0.isReset }.dropFirst()
    let snapshot = afterReset.prefix { !$0.isSynced }
    #expect(snapshot.allSatisfy { if case .snapshot = $0 { true } else { false } })
    collector.cancel()
    await client.close()
  }
}
